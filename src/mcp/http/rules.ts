/**
 * A contract's JSON-RPC rules over HTTP, as jsonrpc-rules.ts and the stdio line reader apply them
 * to a stdio connection: every POST body is held to the inbound limits (-32700, before the SDK
 * parses it), and each request is refused as the rules say (-32601, -32602, and -32600 for an id
 * still running in the same 2025 session; a 2026 request stands alone, so its id cannot collide).
 * What passes is served unchanged.
 */
import type { RequestId } from '@modelcontextprotocol/server';
import { holdUntilSent, type Admission } from './capacity.js';
import type { Exchange } from './exchange.js';
import { messageOf } from './body.js';
import { jsonBytesProblem, PARSE_ERROR } from '../wire/json-limits.js';
import { isRequestId } from '../wire/json-rpc-lines.js';
import { ruleRefusal, type JsonRpcRules } from '../wire/jsonrpc-rules.js';

export function httpRules(rules: JsonRpcRules): Admission {
  /** Per 2025 session (its Mcp-Session-Id): the ids of the requests still being answered. */
  const running = new Map<string, Set<RequestId>>();

  return async (exchange, serve) => {
    const body = exchange.body;
    if (exchange.method !== 'POST') return serve();
    const limits = rules.limits;
    if (limits && Number(exchange.header('content-length') ?? 0) > limits.maxBytes) return jsonRpcError(exchange, 400, null, PARSE_ERROR, limits.message);
    // No bytes: over the SDK's own bound, or unreadable.
    if (limits && (!body.bytes || jsonBytesProblem(body.bytes, limits) !== undefined)) return jsonRpcError(exchange, 400, null, PARSE_ERROR, limits.message);
    // Not JSON at all: the SDK answers that itself unless the contract words it.
    if (body.json === undefined) return limits ? jsonRpcError(exchange, 400, null, PARSE_ERROR, limits.message) : serve();
    const message = messageOf(body);
    // Responses, batches and malformed messages are the SDK's to judge.
    if (!message || typeof message.method !== 'string') return serve();
    const session = exchange.header('mcp-session-id') ?? null;
    const ids = session === null ? undefined : (running.get(session) ?? new Set<RequestId>());
    if (!isRequestId(message.id)) {
      if (message.method === 'notifications/cancelled' && ids) ids.delete(message.params?.requestId as RequestId);
      return serve();
    }
    const id = message.id;
    // A _meta version that differs from the MCP-Protocol-Version header is a header mismatch (-32020,
    // HTTP 400), which the SDK answers; the contract's version rule is for the version itself.
    const named = (message.params?._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/protocolVersion'];
    const header = exchange.header('mcp-protocol-version') ?? null;
    if (named !== undefined && header !== null && named !== header) return serve();
    // A 2026-07-28 request (it names its version in _meta) has no `initialize`: that is the SDK's
    // "method not found" (HTTP 404), not the contract's rule for legacy initialization.
    const modern = named !== undefined;
    if (modern && message.method === 'initialize') return serve();
    const refusal = ruleRefusal({ id, method: message.method, ...(message.params ? { params: message.params } : {}) }, rules, ids ?? new Set());
    // Over HTTP in 2026-07-28 a method the server does not serve is also HTTP 404.
    if (refusal) return jsonRpcError(exchange, modern && refusal.error.code === -32601 ? 404 : refusal.httpStatus, refusal.id, refusal.error.code, refusal.error.message, refusal.error.data);
    if (!ids) return serve();
    running.set(session!, ids.add(id));
    holdUntilSent(exchange, () => {
      ids.delete(id);
      if (ids.size === 0) running.delete(session!);
    });
    return serve();
  };
}

function jsonRpcError(exchange: Exchange, status: number, id: RequestId | null, code: number, message: string, data?: Record<string, unknown>): void {
  exchange.json(status, { jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } });
}
