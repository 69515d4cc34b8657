/**
 * Request capacity over HTTP, for profiles whose contract bounds concurrent tool calls: the rule
 * withCapacity (capacity.ts) applies to one stdio connection, applied across every HTTP request of the
 * process, since they all share one engine. At most `workers` counted requests run at once, the rest
 * wait up to `capacity` in all, and one more is answered at once with JSON-RPC -32000. A slot is held
 * until the answer has been sent in full, or the client has gone.
 */
import { CAPACITY_EXHAUSTED, type CapacityOptions } from '../wire/capacity.js';

/** A request as the gates in front of the SDK see it: a POST's body as text and, when it is JSON, parsed. */
export interface Inbound {
  readonly request: Request;
  /** The body's text; '' when there is none. */
  readonly text: string;
  /** The body's JSON; undefined when it is empty or not JSON. */
  readonly json: unknown;
  /** Calls `done` once the answer has been written in full, or the client has gone. */
  whenSent(done: () => void): void;
}

/** Serves a request or answers it in place. */
export type Admission = (inbound: Inbound, serve: () => Promise<Response>) => Promise<Response>;

/** The fields a gate reads of a JSON-RPC message; undefined for a body that is not an object. */
export function messageOf(json: unknown): { id?: unknown; method?: unknown; params?: Record<string, unknown> } | undefined {
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? json : undefined;
}

export function httpAdmission(options: CapacityOptions): Admission {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    // A freed slot passes straight to the oldest waiter, so no newcomer can slip in between.
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  return async ({ request, json, whenSent }, serve) => {
    const message = messageOf(json);
    const counted = typeof message?.method === 'string' && options.methods.has(message.method);
    const id = message?.id;
    if (!counted || (typeof id !== 'string' && typeof id !== 'number')) return serve();
    if (running + waiting.length >= options.capacity) return Response.json({ jsonrpc: '2.0', id, error: { ...CAPACITY_EXHAUSTED } });
    if (running < options.workers) running++;
    else {
      const admitted = await new Promise<boolean>((resolve) => {
        const take = () => resolve(true);
        waiting.push(take);
        request.signal.addEventListener(
          'abort',
          () => {
            const at = waiting.indexOf(take);
            if (at !== -1) waiting.splice(at, 1);
            resolve(at === -1); // already handed a slot: it must be given back below
          },
          { once: true },
        );
      });
      if (!admitted) return new Response(null, { status: 499 });
    }
    whenSent(release);
    return serve();
  };
}
