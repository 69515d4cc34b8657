/**
 * tools/call requests the SDK refuses by its own request schema before any handler runs (`params`
 * or `arguments` that are not objects, a `name` that is not a string): seen here on their way in,
 * so the audit has a line for them as for every other call. The request goes on to the SDK as it
 * came, and the SDK answers it (-32602); nothing here decides or answers anything.
 */
import { CLIENT_INFO_META_KEY, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { isRequest } from '../wire/message-kind.js';
import { TransportGate, type Extra } from '../wire/transport-gate.js';

/** A refused call as the audit records it. */
export interface ShapeRefusal {
  readonly tool: string;
  readonly arguments: unknown;
  readonly why: string;
  readonly clientName?: string;
  readonly session?: string;
}

export function withShapeAudit(inner: Transport, record: (refusal: ShapeRefusal) => void): Transport {
  return new ShapeAudit(inner, record);
}

class ShapeAudit extends TransportGate {
  constructor(
    inner: Transport,
    private readonly record: (refusal: ShapeRefusal) => void,
  ) {
    super(inner);
  }

  protected receive(message: JSONRPCMessage, extra: Extra): void {
    if (isRequest(message) && message.method === 'tools/call') {
      const refusal = shapeRefusal(message.params);
      if (refusal) this.record({ ...refusal, ...(this.sessionId !== undefined ? { session: this.sessionId } : {}) });
    }
    this.forward(message, extra);
  }

  protected answered(): void {}

  protected reset(): void {}
}

/** What is wrong with a tools/call's params for the SDK's schema, if anything this can tell. */
function shapeRefusal(params: unknown): Omit<ShapeRefusal, 'session'> | undefined {
  if (!isObject(params)) return { tool: '', arguments: params, why: 'params: expected an object' };
  const tool = typeof params['name'] === 'string' ? params['name'] : '';
  const args = params['arguments'];
  const info = isObject(params['_meta']) ? params['_meta'][CLIENT_INFO_META_KEY] : undefined;
  const clientName = isObject(info) && typeof info['name'] === 'string' ? info['name'] : undefined;
  const why =
    typeof params['name'] !== 'string'
      ? 'params.name: expected a string'
      : args !== undefined && !isObject(args)
        ? `params.arguments: expected an object, got ${args === null ? 'null' : Array.isArray(args) ? 'an array' : `a ${typeof args}`}`
        : undefined;
  return why === undefined ? undefined : { tool, arguments: args, why, ...(clientName !== undefined ? { clientName } : {}) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
