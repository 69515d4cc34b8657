/**
 * Request capacity over HTTP, for profiles whose contract bounds concurrent tool calls: the rule
 * withCapacity (capacity.ts) applies to one stdio connection, applied across every HTTP request of the
 * process, since they all share one engine. At most `workers` counted requests run at once, the rest
 * wait up to `capacity` in all, and one more is answered at once with JSON-RPC -32000. A slot is held
 * until the answer has been written in full, or the client has gone.
 */
import { CAPACITY_EXHAUSTED, type CapacityOptions } from '../wire/capacity.js';
import { messageOf, type PostBody } from './body.js';
import type { Exchange } from './exchange.js';

/** Serves an exchange or answers it in place. */
export type Admission = (exchange: Exchange, serve: () => Promise<void>) => Promise<void>;

export function httpAdmission(options: CapacityOptions): Admission {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    // A freed slot passes straight to the oldest waiter, so no newcomer can slip in between.
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  return async (exchange, serve) => {
    const id = countedRequestId(exchange.body, options.methods);
    if (id === undefined) return serve();
    if (running + waiting.length >= options.capacity) return exchange.json(200, { jsonrpc: '2.0', id, error: { ...CAPACITY_EXHAUSTED } });
    if (running < options.workers) running++;
    else {
      const admitted = await new Promise<boolean>((resolve) => {
        const take = () => resolve(true);
        waiting.push(take);
        exchange.signal.addEventListener('abort', () => {
          const at = waiting.indexOf(take);
          if (at !== -1) waiting.splice(at, 1);
          resolve(at === -1); // already handed a slot: it must be given back below
        }, { once: true });
      });
      if (!admitted) return exchange.empty(499);
    }
    holdUntilSent(exchange, release);
    return serve();
  };
}

/** Calls `release` once, when the exchange's answer has been written in full or the client has gone. */
export function holdUntilSent(exchange: Exchange, release: () => void): void {
  exchange.onClose(release);
}

/** The id of a request whose method counts against capacity. */
function countedRequestId(body: PostBody, methods: ReadonlySet<string>): string | number | undefined {
  const message = messageOf(body);
  const counted = typeof message?.method === 'string' && methods.has(message.method);
  return counted && (typeof message.id === 'string' || typeof message.id === 'number') ? message.id : undefined;
}
