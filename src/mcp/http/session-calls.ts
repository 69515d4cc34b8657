/**
 * The plainest request of a 2025-11-25 session, a `tools/call` of a listed tool, run through the
 * profile's calls (server.ts DirectCalls) instead of the session's Server, its response handed to
 * the session's transport as the Server would hand it: the result in its result schema's key order,
 * then `jsonrpc` and `id`. "Plain" is narrow: one request alone in its POST, an id of a string or a
 * safe integer, params of exactly the tool's name and (optionally) an object of arguments: no `_meta`,
 * so no progress token or envelope. Anything else goes to the session's Server. A result outside
 * the plain shape, or a call that throws, is given back by a bare server, so the response stays the
 * SDK's. A call is aborted as the Server aborts its own: by `notifications/cancelled` naming it (its
 * response then never sent) and by the session closing. A POST its client drops does not cancel its
 * calls: in this revision a disconnection is not a cancellation.
 */
import { Server, type CallToolResult, type JSONRPCMessage, type RequestId, type Transport } from '@modelcontextprotocol/server';
import type { DirectCalls } from '../server.js';
import { connectionClosed, settled, wireCallResult, type CallOutcome } from './call-result.js';
import { hasExactly, isObject, isRequestId } from '../wire/raw-json.js';

export interface SessionCalls {
  /**
   * Runs `message` when it is a plain call, its response given to `answer` unless it is aborted
   * first; false, having done nothing, when it is the Server's.
   */
  take(message: JSONRPCMessage, answer: (response: JSONRPCMessage) => Promise<void>): boolean;
  /** Each notification the session receives: a `notifications/cancelled` naming a call running here aborts it. */
  notified(message: JSONRPCMessage): void;
  /** The session closed: its calls end, their responses unsent, as the Server's do. */
  close(): void;
}

export interface SessionIdentity {
  /** The session's id (the audit's session). */
  session(): string | undefined;
  /** The client's name from the session's `initialize` (the audit's client). */
  clientName(): string | undefined;
}

export function sessionCalls(calls: DirectCalls, identity: SessionIdentity, onerror?: (error: Error) => void): SessionCalls {
  /** The calls running, by request id, as the Server keeps its own. */
  const running = new Map<RequestId, AbortController>();
  let closed = false;

  async function call(message: JSONRPCMessage, id: RequestId, name: string, args: Record<string, unknown>, answer: (response: JSONRPCMessage) => Promise<void>): Promise<void> {
    const abort = new AbortController();
    running.set(id, abort);
    const clientName = identity.clientName();
    const session = identity.session();
    const outcome = await settled(() =>
      calls.call(name, args, { id, signal: abort.signal, ...(clientName !== undefined ? { clientName } : {}), ...(session !== undefined ? { session } : {}) }),
    );
    if (running.get(id) === abort) running.delete(id);
    // The Server sends nothing for a request it aborted.
    if (abort.signal.aborted) return;
    const result = 'result' in outcome ? sessionCallResult(outcome.result) : undefined;
    const response = result !== undefined ? ({ result, jsonrpc: '2.0', id } as JSONRPCMessage) : await replay(calls, message, outcome);
    if (response === undefined || abort.signal.aborted) return;
    await answer(response);
  }

  return {
    take(message, answer) {
      if (closed || !('method' in message) || message.method !== 'tools/call' || !('id' in message)) return false;
      const { id, params } = message as { id: unknown; params?: unknown };
      if (!isRequestId(id) || !isObject(params)) return false;
      if (!hasExactly(params, ['name'], ['arguments'])) return false;
      const { name, arguments: args = {} } = params;
      if (typeof name !== 'string' || !calls.listed.has(name) || !isObject(args) || Object.hasOwn(args, '__proto__')) return false;
      // An id still running is the Server's to judge, as a repeated id is.
      if (running.has(id)) return false;
      void call(message, id, name, args, answer).catch((error: unknown) => onerror?.(error instanceof Error ? error : new Error(String(error))));
      return true;
    },
    notified(message) {
      if (running.size === 0 || !('method' in message) || message.method !== 'notifications/cancelled') return;
      // As the SDK's schema for it reads it: a request id, and a reason when it is a string.
      const params = (message as { params?: unknown }).params;
      if (!isObject(params) || (params['reason'] !== undefined && typeof params['reason'] !== 'string')) return;
      if (params['_meta'] !== undefined && !isObject(params['_meta'])) return;
      const id = params['requestId'];
      if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return;
      running.get(id)?.abort(params['reason']);
    },
    close() {
      closed = true;
      for (const abort of running.values()) abort.abort(connectionClosed());
      running.clear();
    },
  };
}


/** A plain result as the 2025 result schema gives it back; its structuredContent must be an object there. */
function sessionCallResult(result: CallToolResult): Record<string, unknown> | undefined {
  const wire = wireCallResult(result);
  if (wire === undefined || (wire['structuredContent'] !== undefined && !isObject(wire['structuredContent']))) return undefined;
  return wire;
}

/**
 * The Server's response for a call already run: a bare server with the profile's identity, whose
 * tools/call gives back this outcome, answers the request on a transport that keeps its response.
 */
async function replay(calls: DirectCalls, request: JSONRPCMessage, outcome: CallOutcome): Promise<JSONRPCMessage | undefined> {
  const server = new Server(calls.serverInfo, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/call', async () => {
    if ('error' in outcome) throw outcome.error;
    return outcome.result;
  });
  let sent: (message: JSONRPCMessage) => void = () => {};
  const response = new Promise<JSONRPCMessage>((resolve) => (sent = resolve));
  const transport: Transport = {
    start: async () => {},
    close: async () => {},
    send: async (message) => sent(message),
  };
  await server.connect(transport);
  transport.onmessage?.(request);
  try {
    return await response;
  } finally {
    await server.close();
  }
}
