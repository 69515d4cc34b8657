/**
 * A POST's body, read once (exchange.ts) for every look taken at it before the SDK (a contract's
 * rules, capacity, era routing, opening a 2025 session) and then handed to the SDK already parsed
 * (`parsedBody`), so that no step reads or parses it again. A body that is not JSON reads as no
 * JSON, and the SDK reads it from the request and answers it as it always does.
 */

export interface PostBody {
  /** The raw bytes, as they arrived (invalid UTF-8 included); undefined when not a POST or empty. */
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

/** The body of a request as read (exchange.ts): a POST's bytes and their JSON; anything else has none to look at. */
export function postBody(method: string, bytes: Buffer | undefined): PostBody {
  if (method !== 'POST' || bytes === undefined || bytes.length === 0) return NONE;
  try {
    return { bytes, json: JSON.parse(bytes.toString('utf8')) };
  } catch {
    return { bytes, json: undefined };
  }
}
