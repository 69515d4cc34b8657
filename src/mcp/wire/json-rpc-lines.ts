/**
 * Newline-delimited JSON-RPC framing for stdio that answers what it cannot pass on. The SDK's
 * ReadBuffer drops a line that is JSON but not a valid message (a `tools/call` whose `params` is an
 * array or a string) and the client waits forever; it skips unparseable lines silently, and a line
 * over its buffer limit ends the connection. Here each of those gets a JSON-RPC error answer
 * (with the request's id when it has a usable one), and reading goes on with the next line.
 */
import {
  parseJSONRPCMessage,
  ProtocolErrorCode,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/server';
import { jsonBytesProblem, PARSE_ERROR, type JsonLimits } from './json-limits.js';

/** The longest line read; longer ones are skipped to their newline and answered with an error. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** One line read: a message to serve, or an error to answer in its place. */
export type Inbound = { readonly message: JSONRPCMessage } | { readonly answer: JSONRPCErrorResponse };

export class JsonRpcLines {
  #chunks: Buffer[] = [];
  #bytes = 0;
  /** Inside a line already over the limit: drop bytes up to its newline. */
  #skipping = false;
  readonly #ready: Inbound[] = [];

  readonly #maxLineBytes: number;

  /** With `limits` (a contract's), every line is held to them and anything over is answered -32700. */
  constructor(private readonly limits?: JsonLimits) {
    this.#maxLineBytes = limits?.maxBytes ?? MAX_LINE_BYTES;
  }

  append(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      if (!this.#skipping) {
        this.#chunks.push(piece);
        this.#bytes += piece.length;
        if (this.#bytes > this.#maxLineBytes) {
          this.#skipping = true;
          this.#clearLine();
          this.#ready.push({
            answer: this.limits
              ? errorAnswer(null, PARSE_ERROR, this.limits.message)
              : errorAnswer(null, ProtocolErrorCode.InvalidRequest, `message longer than ${this.#maxLineBytes} bytes; it was not read`),
          });
        }
      }
      if (nl === -1) return;
      if (this.#skipping) this.#skipping = false;
      else {
        const bytes = Buffer.concat(this.#chunks);
        this.#clearLine();
        const inbound =
          this.limits && jsonBytesProblem(bytes, this.limits) !== undefined
            ? { answer: errorAnswer(null, PARSE_ERROR, this.limits.message) }
            : classifyLine(bytes.toString('utf8').replace(/\r$/, ''), this.limits?.message);
        if (inbound) this.#ready.push(inbound);
      }
      start = nl + 1;
    }
  }

  /** The next complete line's outcome, in order, or null when none is complete. */
  next(): Inbound | null {
    return this.#ready.shift() ?? null;
  }

  clear(): void {
    this.#clearLine();
    this.#ready.length = 0;
  }

  #clearLine(): void {
    this.#chunks = [];
    this.#bytes = 0;
  }
}

/** What one line holds; undefined for a blank line or an invalid notification, which nothing can answer. */
function classifyLine(line: string, parseErrorMessage = 'the message is not valid JSON'): Inbound | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { answer: errorAnswer(null, ProtocolErrorCode.ParseError, parseErrorMessage) };
  }
  try {
    return { message: parseJSONRPCMessage(value) };
  } catch {
    return rejection(value);
  }
}

/** The answer to JSON that is not a valid JSON-RPC message. */
function rejection(value: unknown): Inbound | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      answer: errorAnswer(null, ProtocolErrorCode.InvalidRequest, 'a message must be a JSON-RPC object (batches are not supported)'),
    };
  }
  const message = value as Record<string, unknown>;
  if (!('id' in message)) return undefined; // a notification, or a response we cannot place: nothing to answer
  const id = isRequestId(message.id) ? message.id : null;
  if (message.jsonrpc !== '2.0') return { answer: errorAnswer(id, ProtocolErrorCode.InvalidRequest, 'jsonrpc must be "2.0"') };
  if (!isRequestId(message.id)) return { answer: errorAnswer(null, ProtocolErrorCode.InvalidRequest, 'id must be a string or an integer') };
  if (typeof message.method !== 'string') return { answer: errorAnswer(id, ProtocolErrorCode.InvalidRequest, 'method must be a string') };
  const params = message.params;
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    // JSON-RPC allows positional (array) params; MCP names every parameter, so an array is bad params.
    const code = Array.isArray(params) ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InvalidRequest;
    return {
      answer: errorAnswer(id, code, `${message.method}: params must be an object of named parameters, not ${describeType(params)}`),
    };
  }
  return { answer: errorAnswer(id, ProtocolErrorCode.InvalidRequest, `${message.method}: not a valid JSON-RPC request`) };
}

export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function errorAnswer(id: RequestId | null, code: number, message: string): JSONRPCErrorResponse {
  // JSON-RPC answers a request whose id cannot be read with id null.
  return { jsonrpc: '2.0', id: id as RequestId, error: { code, message } };
}

/**
 * The SDK answers a request whose params fail its schema with "Invalid tools/call request: " and
 * the validator's issue list as pretty-printed JSON. This turns that list into one line per issue
 * (`params.arguments: expected record, received array`), which an agent can act on.
 */
export function readableProtocolError(response: JSONRPCErrorResponse): JSONRPCErrorResponse {
  const dump = /^(Invalid \S+ request): (\[[\s\S]*\])$/.exec(response.error.message);
  if (!dump) return response;
  let issues: unknown;
  try {
    issues = JSON.parse(dump[2]!);
  } catch {
    return response;
  }
  if (!Array.isArray(issues) || issues.length === 0) return response;
  const lines = issues.slice(0, 5).map((issue: { path?: unknown; message?: unknown }) => {
    const path = Array.isArray(issue.path) ? issue.path.join('.') : '';
    return `${path || 'the request'}: ${String(issue.message ?? 'is invalid').replace(/^Invalid input: /, '')}`;
  });
  return { ...response, error: { ...response.error, message: `${dump[1]}: ${lines.join('; ')}` } };
}

/**
 * One outbound message as a newline-delimited line. The frame's newline is the only CR or LF in
 * it (a contract may say so outright): JSON.stringify with no indent escapes both inside strings
 * and adds no whitespace of its own, so nothing needs scanning.
 */
export function outboundLine(message: JSONRPCMessage): string {
  return `${JSON.stringify(message)}\n`;
}
