/**
 * A contract's JSON-RPC rules over HTTP, as jsonrpc-rules.ts and the stdio line reader apply them
 * to a stdio connection: every POST body is held to the inbound limits (-32700, before the SDK
 * parses it), and each request is refused as the rules say (-32601, -32602, and -32600 for an id
 * still running in the same 2025 session; a 2026 request stands alone, so its id cannot collide).
 * What passes is served unchanged.
 */
import { PROTOCOL_VERSION_META_KEY, type RequestId } from '@modelcontextprotocol/server';
import { messageOf, type Admission } from './capacity.js';
import { jsonBytesProblem, PARSE_ERROR } from '../wire/json-limits.js';
import { isRequestId } from '../wire/json-rpc-lines.js';
import { ruleRefusal, type JsonRpcRules } from '../wire/jsonrpc-rules.js';

export function httpRules(rules: JsonRpcRules): Admission {
  /** Per 2025 session (its Mcp-Session-Id): the ids of the requests still being answered. */
  const running = new Map<string, Set<RequestId>>();

  return async ({ request, text, json, whenSent }, serve) => {
    if (request.method !== 'POST') return serve();
    const limits = rules.limits;
    // (The SDK's Node adapter has decoded the body as UTF-8, so the bytes counted are those of its text.)
    if (limits && (json === undefined || jsonBytesProblem(Buffer.from(text, 'utf8'), limits) !== undefined))
      return jsonRpcError(400, null, PARSE_ERROR, limits.message);
    const message = messageOf(json);
    // Not JSON, responses, batches and malformed messages are the SDK's to judge.
    if (!message || typeof message.method !== 'string') return serve();
    const session = request.headers.get('mcp-session-id');
    const ids = session === null ? undefined : (running.get(session) ?? new Set<RequestId>());
    if (!isRequestId(message.id)) {
      if (message.method === 'notifications/cancelled' && ids) ids.delete(message.params?.requestId as RequestId);
      return serve();
    }
    const id = message.id;
    // A _meta version that differs from the MCP-Protocol-Version header is a header mismatch (-32020,
    // HTTP 400), which the SDK answers; the contract's version rule is for the version itself.
    const named = (message.params?._meta as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY];
    const header = request.headers.get('mcp-protocol-version');
    if (named !== undefined && header !== null && named !== header) return serve();
    // A 2026-07-28 request (it names its version in _meta) has no `initialize`: that is the SDK's
    // "method not found" (HTTP 404), not the contract's rule for legacy initialization.
    const modern = named !== undefined;
    if (modern && message.method === 'initialize') return serve();
    const refusal = ruleRefusal(
      { id, method: message.method, ...(message.params ? { params: message.params } : {}) },
      rules,
      ids ?? new Set(),
    );
    // Over HTTP in 2026-07-28 a method the server does not serve is also HTTP 404.
    if (refusal)
      return jsonRpcError(
        modern && refusal.error.code === -32601 ? 404 : refusal.httpStatus,
        refusal.id,
        refusal.error.code,
        refusal.error.message,
        refusal.error.data,
      );
    if (!ids) return serve();
    running.set(session!, ids.add(id));
    whenSent(() => {
      ids.delete(id);
      if (ids.size === 0) running.delete(session!);
    });
    return serve();
  };
}

function jsonRpcError(status: number, id: RequestId | null, code: number, message: string, data?: Record<string, unknown>): Response {
  return Response.json({ jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } }, { status });
}
