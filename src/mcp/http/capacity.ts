/**
 * Request capacity over HTTP, for profiles whose contract bounds concurrent tool calls: the rule
 * withCapacity (capacity.ts) applies to one stdio connection, applied across every HTTP request of the
 * process, since they all share one engine. At most `workers` counted requests run at once, the rest
 * wait up to `capacity` in all, and one more is answered at once with JSON-RPC -32000. A slot is held
 * until the response has been sent in full, or the client has gone.
 */
import { CAPACITY_EXHAUSTED, type CapacityOptions } from '../wire/capacity.js';
import { messageOf, type PostBody } from './body.js';

/** Serves a request (with its body, read once) or answers it in place. */
export type Admission = (request: Request, body: PostBody, serve: () => Promise<Response>) => Promise<Response>;

export function httpAdmission(options: CapacityOptions): Admission {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    // A freed slot passes straight to the oldest waiter, so no newcomer can slip in between.
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  return async (request, body, serve) => {
    const id = countedRequestId(body, options.methods);
    if (id === undefined) return serve();
    if (running + waiting.length >= options.capacity) return Response.json({ jsonrpc: '2.0', id, error: { ...CAPACITY_EXHAUSTED } });
    if (running < options.workers) running++;
    else {
      const admitted = await new Promise<boolean>((resolve) => {
        const take = () => resolve(true);
        waiting.push(take);
        request.signal.addEventListener('abort', () => {
          const at = waiting.indexOf(take);
          if (at !== -1) waiting.splice(at, 1);
          resolve(at === -1); // already handed a slot: it must be given back below
        }, { once: true });
      });
      if (!admitted) return new Response(null, { status: 499 });
    }
    return holdUntilSent(request, serve, release);
  };
}

/**
 * Serves `request` and calls `release` once, when its response has been sent in full, the client
 * has gone, or serving failed: for whatever is held while a request is in flight.
 */
export async function holdUntilSent(request: Request, serve: () => Promise<Response>, release: () => void): Promise<Response> {
  let held = true;
  const done = () => {
    if (!held) return;
    held = false;
    release();
  };
  request.signal.addEventListener('abort', done, { once: true });
  let response: Response;
  try {
    response = await serve();
  } catch (error) {
    done();
    throw error;
  }
  if (!response.body) {
    done();
    return response;
  }
  return new Response(response.body.pipeThrough(new TransformStream({ flush: done })), response);
}

/** The id of a request whose method counts against capacity. */
function countedRequestId(body: PostBody, methods: ReadonlySet<string>): string | number | undefined {
  const message = messageOf(body);
  const counted = typeof message?.method === 'string' && methods.has(message.method);
  return counted && (typeof message.id === 'string' || typeof message.id === 'number') ? message.id : undefined;
}
