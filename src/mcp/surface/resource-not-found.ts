/**
 * The "resource not found" code of each protocol era. 2025-11-25 answers a `resources/read` of a
 * resource that does not exist with -32002; 2026-07-28 (SEP-2164) with -32602 and `data: {uri}`.
 * The SDK answers -32602 in both eras (it maps even a thrown -32002 to -32602 when encoding), so
 * this wire wrapper puts -32002 back on the answers to 2025-era reads: those whose request named
 * no protocol version in `_meta`, as every 2026-07-28 request must. A not-found answer is told by
 * the SDK's own mark, `data` holding exactly `{uri}`; other -32602 answers (a malformed URI, bad
 * parameters) keep their code.
 */
import {
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  type JSONRPCMessage,
  type RequestId,
  type TransportSendOptions,
  type Transport,
} from '@modelcontextprotocol/server';
import { isErrorResponse, isRequest } from '../wire/message-kind.js';
import { TransportGate, type Extra } from '../wire/transport-gate.js';

export function withEraResourceNotFound(inner: Transport): Transport {
  return new EraResourceNotFound(inner);
}

class EraResourceNotFound extends TransportGate {
  /** 2025-era resources/read requests not yet answered. */
  readonly #legacyReads = new Set<RequestId>();

  protected receive(message: JSONRPCMessage, extra: Extra): void {
    if (isRequest(message) && message.method === 'resources/read') {
      const meta = message.params?._meta as Record<string, unknown> | undefined;
      if (!meta || !(PROTOCOL_VERSION_META_KEY in meta)) this.#legacyReads.add(message.id);
    }
    this.forward(message, extra);
  }

  protected answered(id: RequestId): void {
    this.#legacyReads.delete(id);
  }

  protected reset(): void {
    this.#legacyReads.clear();
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // Every answer passes here: the key test, not the SDK's guard (a zod parse of the whole result).
    const legacyMiss =
      isErrorResponse(message) && message.id !== undefined && this.#legacyReads.has(message.id) && isNotFound(message.error);
    await super.send(legacyMiss ? { ...message, error: { ...message.error, code: ProtocolErrorCode.ResourceNotFound } } : message, options);
  }
}

/** The SDK's mark of a resource-not-found answer: -32602 whose data is exactly `{uri}`. */
function isNotFound(error: { code: number; data?: unknown }): boolean {
  const data = error.data;
  return (
    error.code === ProtocolErrorCode.InvalidParams &&
    typeof data === 'object' &&
    data !== null &&
    Object.keys(data).length === 1 &&
    typeof (data as { uri?: unknown }).uri === 'string'
  );
}
