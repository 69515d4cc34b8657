/**
 * A POST's body, read once for every look taken at it before the SDK (a contract's rules, capacity,
 * era routing, opening a 2025 session) and then handed to the SDK already parsed (`parsedBody`), so
 * that no step clones, reads or parses it again. It is read from a copy, bounded as the SDK bounds
 * it: a body that is too large, unreadable or not JSON reads as no JSON, and the SDK reads the
 * untouched original and answers it as it always does.
 */
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';

export interface PostBody {
  /** The raw bytes; undefined when over the size bound or unreadable. */
  readonly bytes: Buffer | undefined;
  /** The parsed JSON; undefined when there are no bytes or they are not JSON. */
  readonly json: unknown;
}

/** The fields a look before the SDK reads of a JSON-RPC message; undefined for a body that is not an object. */
export interface MessageFields {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: Record<string, unknown>;
}
export function messageOf(body: PostBody): MessageFields | undefined {
  return body.json !== null && typeof body.json === 'object' ? (body.json as MessageFields) : undefined;
}

/** The SDK's options for a body read here: its JSON when it has some; else nothing, and the SDK reads the original. */
export function parsedFor(body: PostBody): { parsedBody?: unknown } {
  return body.json === undefined ? {} : { parsedBody: body.json };
}

const NONE: PostBody = { bytes: undefined, json: undefined };

/** The body of a POST (anything else has none to read). */
export async function readPostBody(request: Request, maxBytes = DEFAULT_MAX_REQUEST_BODY_SIZE): Promise<PostBody> {
  if (request.method !== 'POST' || request.body === null) return NONE;
  if (Number(request.headers.get('content-length')) > maxBytes) return NONE;
  let bytes: Buffer | undefined;
  try {
    bytes = await boundedBytes(request.clone().body!, maxBytes);
  } catch {
    return NONE;
  }
  if (!bytes) return NONE;
  try {
    return { bytes, json: bytes.length === 0 ? undefined : JSON.parse(bytes.toString('utf8')) };
  } catch {
    return { bytes, json: undefined };
  }
}

/**
 * The stream's bytes, or undefined once more than `maxBytes` have arrived (the rest is not read).
 * Bytes, not the SDK's readRequestBody text: a contract's limits must see invalid UTF-8 that decoding would replace.
 */
async function boundedBytes(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return Buffer.concat(chunks, received);
      received += value.byteLength;
      if (received > maxBytes) {
        await reader.cancel();
        return undefined;
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
}
