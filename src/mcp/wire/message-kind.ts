/**
 * The kind of a JSON-RPC message that is already known to be one: parsed by the SDK's
 * JSONRPCMessageSchema on the way in (json-rpc-lines.ts, the SDK's HTTP transport), built by the
 * SDK or a gate on the way out. That schema's four shapes (request, notification, result, error)
 * are strict objects, so their keys tell them apart; the SDK's isJSONRPC* guards would parse the
 * message with zod again, which for a response walks the whole result (hot path: every message).
 */
import type { JSONRPCErrorResponse, JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, RequestId } from '@modelcontextprotocol/server';

export function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

export function isNotification(message: JSONRPCMessage): message is JSONRPCNotification {
  return 'method' in message && !('id' in message);
}

export function isErrorResponse(message: JSONRPCMessage): message is JSONRPCErrorResponse {
  return 'error' in message;
}

/** The request a `notifications/cancelled` names, if `message` is one. */
export function cancelledId(message: JSONRPCMessage): RequestId | undefined {
  if (!isNotification(message) || message.method !== 'notifications/cancelled') return undefined;
  return (message.params as { requestId?: RequestId } | undefined)?.requestId;
}

/** The request a response answers (null for an error about no request); undefined for a request or a notification. */
export function answeredId(message: JSONRPCMessage): RequestId | undefined {
  return 'result' in message || 'error' in message ? (message.id as RequestId | undefined) : undefined;
}
