/**
 * The plainest 2026-07-28 requests, `tools/call` of a listed tool and `tools/list`, answered here with
 * the bytes the SDK's entry (createMcpHandler) would write, without building a server, a transport
 * and a Web Response for each. "Plain" is narrow: one request, exactly the envelope a client sends
 * (version, clientInfo, empty-valued capabilities), the standard headers agreeing with the body, no
 * progress token, cursor or multi-round-trip material. Anything else goes to the SDK's entry
 * unanswered, as the stdio first answers do (wire/first-answers.ts). A call's result is written in
 * the shape the SDK's result schema gives it; a result or failure outside that shape is answered
 * by a server that gives it back, through the SDK's own per-request transport.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isJsonContentType,
  PerRequestHTTPServerTransport,
  PROTOCOL_VERSION_META_KEY,
  SdkError,
  SdkErrorCode,
  Server,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type RequestId,
} from '@modelcontextprotocol/server';
import type { DirectCalls } from '../server.js';
import type { Exchange } from './exchange.js';
import { connectionClosed, settled, wireCallResult, type CallOutcome } from './call-result.js';
import { hasExactly, isObject, isRequestId } from '../wire/raw-json.js';

/** The revision this path answers; the SDK's entry serves it and no other modern one. */
const MODERN_VERSION = '2026-07-28';
/** How the SDK's Mcp-Name header carries a value it cannot send as is: never taken as plain. */
const ENCODED_NAME_PREFIX = '=?base64?';
/** Capabilities a client may declare with an empty object and still be plain; `roots` may say listChanged. */
const PLAIN_CAPABILITIES = new Set(['experimental', 'sampling', 'elicitation', 'roots', 'extensions']);

type Plain =
  | { readonly method: 'tools/list'; readonly id: RequestId }
  | { readonly method: 'tools/call'; readonly id: RequestId; readonly name: string; readonly args: Record<string, unknown>; readonly clientName?: string };

export interface ModernCalls {
  /** Answers `exchange` when it is a plain request; false, having written nothing, when it is the SDK's. */
  serve(exchange: Exchange, authInfo: AuthInfo | undefined): Promise<boolean>;
  /** Ends the calls running (their clients get the SDK's 499) and leaves every later request to the SDK. */
  close(): void;
}

export function modernCalls(calls: DirectCalls, onerror?: (error: Error) => void): ModernCalls {
  const listAnswer = toolsListResultJson(calls);
  const running = new Set<AbortController>();
  let closed = false;

  async function call(exchange: Exchange, request: Extract<Plain, { method: 'tools/call' }>, authInfo: AuthInfo | undefined): Promise<void> {
    const client = exchange.signal;
    // The SDK's entry does not start a call whose client has gone: it answers 499.
    if (client.aborted) return exchange.empty(499);
    const abort = new AbortController();
    // The SDK's entry answers 499 as the call is aborted, and drops its result when it comes.
    abort.signal.addEventListener('abort', () => exchange.empty(499), { once: true });
    const end = () => abort.abort(connectionClosed());
    client.addEventListener('abort', end, { once: true });
    running.add(abort);
    const outcome = await settled(() =>
      calls.call(request.name, request.args, { id: request.id, signal: abort.signal, ...(request.clientName !== undefined ? { clientName: request.clientName } : {}) }),
    );
    client.removeEventListener('abort', end);
    running.delete(abort);
    if (abort.signal.aborted) return;
    const result = 'result' in outcome ? wireCallResult(outcome.result) : undefined;
    if (result === undefined) return replay(calls, exchange, outcome, authInfo, onerror);
    exchange.json(200, { result: { ...result, resultType: 'complete', _meta: { [SERVER_INFO_META_KEY]: calls.serverInfo } }, jsonrpc: '2.0', id: request.id });
  }

  return {
    async serve(exchange, authInfo) {
      const request = closed ? undefined : plainRequest(exchange, calls, listAnswer !== undefined);
      if (request === undefined) return false;
      if (request.method === 'tools/call') await call(exchange, request, authInfo);
      else {
        const text = `{"result":${listAnswer},"jsonrpc":"2.0","id":${JSON.stringify(request.id)}}`;
        exchange.res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }).end(text);
      }
      return true;
    },
    close() {
      closed = true;
      for (const abort of running) abort.abort(connectionClosed());
      running.clear();
    },
  };
}

/**
 * tools/list's result as the SDK's 2026-07-28 encoding writes it: the handler's `{tools}`, then
 * `resultType`, the cache fields it fills for a cacheable result without hints, and the server's identity.
 */
function toolsListResultJson(calls: DirectCalls): string | undefined {
  // The encoding strips `execution` from a tool: a listing with one is left to the SDK.
  if (calls.listing.some((tool) => 'execution' in tool)) return undefined;
  return JSON.stringify({ tools: calls.listing, resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: { [SERVER_INFO_META_KEY]: calls.serverInfo } });
}

/**
 * The request when it is plain (see the module's note), read from the body already parsed and the
 * headers the SDK's entry checks against it (Content-Type, MCP-Protocol-Version, Mcp-Method, Mcp-Name).
 */
function plainRequest(exchange: Exchange, calls: DirectCalls, listable: boolean): Plain | undefined {
  const json = exchange.body.json;
  if (exchange.method !== 'POST' || !isObject(json) || !isJsonContentType(exchange.header('content-type') ?? null)) return undefined;
  if (!hasExactly(json, ['jsonrpc', 'id', 'method', 'params'], []) || json['jsonrpc'] !== '2.0') return undefined;
  const { id, method, params } = json;
  if (!isRequestId(id) || !isObject(params)) return undefined;
  if (exchange.header('mcp-protocol-version') !== MODERN_VERSION || exchange.header('mcp-method') !== method) return undefined;
  const meta = params['_meta'];
  if (!isObject(meta) || !plainEnvelope(meta)) return undefined;
  if (method === 'tools/list') return listable && hasExactly(params, ['_meta'], []) ? { method, id } : undefined;
  if (method !== 'tools/call' || !hasExactly(params, ['name', '_meta'], ['arguments'])) return undefined;
  const { name, arguments: args = {} } = params;
  if (typeof name !== 'string' || !calls.listed.has(name) || !isObject(args) || Object.hasOwn(args, '__proto__')) return undefined;
  if (exchange.header('mcp-name') !== name || name.startsWith(ENCODED_NAME_PREFIX) || /^[ \t]|[ \t]$/.test(name)) return undefined;
  const info = meta[CLIENT_INFO_META_KEY] as { name?: string } | undefined;
  return { method, id, name, args, ...(info?.name !== undefined ? { clientName: info.name } : {}) };
}

/**
 * A 2026-07-28 envelope the SDK accepts as it is: this version, a client's name and version (and title)
 * as strings, and capabilities it knows, each an empty object (roots with at most a boolean listChanged).
 */
function plainEnvelope(meta: Record<string, unknown>): boolean {
  if (!hasExactly(meta, [PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY], [CLIENT_INFO_META_KEY])) return false;
  if (meta[PROTOCOL_VERSION_META_KEY] !== MODERN_VERSION) return false;
  const info = meta[CLIENT_INFO_META_KEY];
  if (info !== undefined) {
    if (!isObject(info) || !hasExactly(info, ['name', 'version'], ['title'])) return false;
    if (Object.values(info).some((value) => typeof value !== 'string')) return false;
  }
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  if (!isObject(capabilities)) return false;
  return Object.entries(capabilities).every(([key, value]) => {
    if (!PLAIN_CAPABILITIES.has(key) || !isObject(value)) return false;
    if (key === 'roots' && hasExactly(value, [], ['listChanged'])) return value['listChanged'] === undefined || typeof value['listChanged'] === 'boolean';
    return Object.keys(value).length === 0;
  });
}

/**
 * The SDK's answer for a call already run: a server with the profile's identity, whose tools/call gives
 * back this outcome, serves the request through the SDK's per-request transport, as its entry does
 * (which also adds the modern revision to the server's versions: the transport binds it to no other).
 */
async function replay(calls: DirectCalls, exchange: Exchange, outcome: CallOutcome, authInfo: AuthInfo | undefined, onerror?: (error: Error) => void): Promise<void> {
  const id = (exchange.body.json as { id: RequestId }).id;
  try {
    const server = new Server(calls.serverInfo, { capabilities: { tools: {} }, supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS, MODERN_VERSION] });
    server.setRequestHandler('tools/call', async () => {
      if ('error' in outcome) throw outcome.error;
      return outcome.result;
    });
    const transport = new PerRequestHTTPServerTransport({ classification: { era: 'modern', revision: MODERN_VERSION } });
    await server.connect(transport);
    const message = exchange.body.json as Parameters<typeof transport.handleMessage>[0];
    await exchange.send(await transport.handleMessage(message, { request: exchange.sdkRequest(), ...(authInfo !== undefined ? { authInfo } : {}) }));
  } catch (error) {
    if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) return exchange.empty(499);
    onerror?.(error instanceof Error ? error : new Error(String(error)));
    exchange.json(500, { jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id });
  }
}
