/**
 * MCP over Streamable HTTP in both protocol eras, for any profile, from one server factory: the SDK's
 * `createMcpHandler` serves 2026-07-28 requests (a fresh server per request; a client that drops its
 * request aborts its call) but the plainest tools/call and tools/list, which modern-calls.ts answers
 * with the same bytes from the factory's calls; 2025-11-25 traffic goes to sessions (sessions.ts), whose
 * plainest calls session-calls.ts answers from the same calls. All
 * behind three gates in this order: the Host header and the Origin header (DNS-rebinding defence, 403), then
 * the bearer token (401). Every server shares one profile context and so one engine. Requests are
 * exchanges on node:http (exchange.ts); only the SDK's fetch handler sees a Request.
 */
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  classifyInboundRequest,
  createMcpHandler,
  parseJSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import { bearerGate, bearerMatches, hostGates } from './auth.js';
import { guardConnections } from './connections.js';
import { legacySessions } from './sessions.js';
import { httpAdmission, type Admission } from './capacity.js';
import { httpRules } from './rules.js';
import { parsedFor } from './body.js';
import { serveExchanges, type Exchange } from './exchange.js';
import { modernCalls } from './modern-calls.js';
import type { ServerFactory } from '../server.js';
import type { CapacityOptions } from '../wire/capacity.js';
import type { JsonRpcRules } from '../wire/jsonrpc-rules.js';
import { isObject } from '../wire/raw-json.js';

/** A 2025 session unused this long is closed: longer than the longest wait a call may make (600 s). */
const SESSION_IDLE_MS = 30 * 60_000;
/** The most 2025 sessions open at once. */
const MAX_SESSIONS = 64;

/** The one path the server answers on; anything else is 404. */
export const MCP_PATH = '/mcp';

export interface HttpOptions {
  readonly host: string;
  /** 0 picks a free port; `HttpServing.url` says which. */
  readonly port: number;
  readonly token: string;
  /** Hostnames accepted in Host and Origin besides localhost, 127.0.0.1 and [::1]. */
  readonly allowedHostnames: readonly string[];
  /** When the profile bounds concurrent tool calls: the bound, across all requests. */
  readonly capacity?: CapacityOptions;
  /** When the profile sets JSON-RPC rules and inbound limits: applied to every POST before capacity. */
  readonly rules?: JsonRpcRules;
  readonly onerror?: (error: Error) => void;
  /** The error to reject with when the address cannot be listened on (in use, not ours). */
  readonly onListenError?: (error: NodeJS.ErrnoException) => Error;
  /** False sends every request to the SDK's entry or a 2025 session's server, even when the factory carries its calls (for tests that compare the two). */
  readonly directCalls?: boolean;
}

export interface HttpServing {
  /** Where clients connect, e.g. http://127.0.0.1:8765/mcp. */
  readonly url: string;
  /** Stops listening and aborts the calls still running. */
  close(): Promise<void>;
  /** Stops taking connections and settles once every POST in flight has been answered, or after `limitMs`. */
  drain(limitMs: number): Promise<void>;
}

export async function serveHttp(factory: McpServerFactory | ServerFactory, options: HttpOptions): Promise<HttpServing> {
  const checkHostAndOrigin = hostGates(options.allowedHostnames);
  const gate = bearerGate(options.token);
  const onerror = options.onerror ? { onerror: options.onerror } : {};
  const handler = createMcpHandler(factory, { legacy: 'reject', ...onerror });
  // Only a factory that carries its profile's calls (server.ts) can answer without a server.
  const calls = 'calls' in factory && options.directCalls !== false ? factory.calls : undefined;
  const sessions = legacySessions(factory, { idleMs: SESSION_IDLE_MS, maxSessions: MAX_SESSIONS, ...onerror, ...(calls ? { calls } : {}) });
  const direct = calls ? modernCalls(calls, options.onerror) : undefined;
  const passThrough: Admission = (_exchange, serve) => serve();
  const ruled = options.rules ? httpRules(options.rules) : passThrough;
  const counted = options.capacity ? httpAdmission(options.capacity) : passThrough;
  // The rules first, then capacity: a refused request never takes a place.
  const admit: Admission = (exchange, serve) => ruled(exchange, () => counted(exchange, serve));
  const serve = serveExchanges(async (exchange) => {
    const auth = await gate(exchange.header('authorization'));
    if (auth instanceof Response) return exchange.send(auth);
    return admit(exchange, async () => {
      if (isLegacy(exchange)) return sessions.serve(exchange, auth);
      if (direct && (await direct.serve(exchange, auth))) return;
      return exchange.send(await handler.fetch(exchange.sdkRequest(), { authInfo: auth, ...parsedFor(exchange.body) }));
    });
  }, onerror);

  // POSTs not yet answered, so a stop can answer them first (GET streams stay open: they are not counted).
  let posts = 0;
  let settled: (() => void) | undefined;
  const hasToken = bearerMatches(options.token);
  // Headers must arrive within seconds (Node checks each second), not Node's default minute.
  const server = createServer({ headersTimeout: 5_000, connectionsCheckingInterval: 1_000 }, (req: IncomingMessage, res: ServerResponse) => {
    if (connections.unproven(req.socket) && hasToken(req.headers.authorization)) connections.proven(req.socket);
    if (req.method === 'POST') {
      posts++;
      res.once('close', () => {
        if (--posts === 0) settled?.();
      });
    }
    if (!checkHostAndOrigin(req, res)) return;
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== MCP_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: MCP is served at ${MCP_PATH}\n`);
      return;
    }
    serve(req, res).catch((error: unknown) => {
      options.onerror?.(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const connections = guardConnections(server);
  await listen(server, options.host, options.port).catch((error: NodeJS.ErrnoException) => {
    throw options.onListenError?.(error) ?? error;
  });
  const { port } = server.address() as AddressInfo;
  const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${hostInUrl}:${port}${MCP_PATH}`,
    async drain(limitMs) {
      server.close();
      if (posts === 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, limitMs);
        settled = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
    async close() {
      direct?.close();
      await handler.close();
      await sessions.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Whether the SDK's entry would serve this request as 2025-era (its isLegacyRequest, on the body
 * already parsed): a POST without JSON, or what its classifier calls legacy.
 */
function isLegacy(exchange: Exchange): boolean {
  const json = exchange.body.json;
  if (exchange.method === 'POST' && json === undefined) return true;
  // What the SDK documents of it: a message carrying the envelope claim is never legacy, unless it is
  // an `initialize` (whose claim the classifier weighs): the common 2026 request skips the classifier.
  if (exchange.method === 'POST' && carriesClaim(json)) return false;
  if (exchange.method === 'POST' && plainLegacyMessage(json, exchange.header('mcp-protocol-version'))) return true;
  const header = (name: string) => exchange.header(name);
  const outcome = classifyInboundRequest({
    httpMethod: exchange.method,
    protocolVersionHeader: header('mcp-protocol-version'),
    mcpMethodHeader: header('mcp-method'),
    mcpNameHeader: header('mcp-name'),
    ...(json !== undefined ? { body: json } : {}),
  } as Parameters<typeof classifyInboundRequest>[0]);
  return outcome.kind === 'legacy';
}

/** A single request or notification (not an `initialize`, not a response) whose params' `_meta` names a protocol version key. */
function carriesClaim(json: unknown): boolean {
  if (!isObject(json) || typeof json['method'] !== 'string' || json['method'] === 'initialize' || 'result' in json || 'error' in json) return false;
  return claimsVersion(json);
}

/** Whether a message's params' `_meta` names a protocol version key (the 2026-07-28 envelope's claim). */
function claimsVersion(json: Record<string, unknown>): boolean {
  const params = json['params'];
  return isObject(params) && isObject(params['_meta']) && PROTOCOL_VERSION_META_KEY in params['_meta'];
}

/**
 * A single JSON-RPC message without the envelope claim, under no header naming a modern revision: the
 * classifier calls each of these legacy (a request, a notification or a response alike), and one
 * parse of the message's own schema tells it from a malformed body, which the classifier refuses.
 */
function plainLegacyMessage(json: unknown, versionHeader: string | undefined): boolean {
  if (!isObject(json) || claimsVersion(json)) return false;
  if (versionHeader !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(versionHeader)) return false;
  try {
    parseJSONRPCMessage(json);
    return true;
  } catch {
    return false;
  }
}

function listen(server: NodeServer, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
