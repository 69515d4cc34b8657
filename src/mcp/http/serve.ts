/**
 * MCP over Streamable HTTP in both protocol eras, for any profile, from one server factory, on the
 * SDK's own paths: `toNodeHandler` (@modelcontextprotocol/node) turns each request into a web
 * Request and writes its Response back; the SDK's `isLegacyRequest` tells the eras apart; its
 * `createMcpHandler` serves 2026-07-28 (a fresh server per request; a client that drops its request
 * aborts its call) and 2025-11-25 goes to sessions on its stateful transport (sessions.ts). In front,
 * as thin wrappers: the Host and Origin headers (the SDK's DNS-rebinding guards, 403), the bearer
 * token (401), a contract's JSON-RPC rules and capacity, and the bounds on slow connections.
 * Every server shares one profile context and so one engine.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, type McpServerFactory } from '@modelcontextprotocol/server';
import { bearerGate, bearerMatches, hostGates } from './auth.js';
import { guardConnections } from './connections.js';
import { legacySessions } from './sessions.js';
import { httpAdmission, type Admission, type Inbound } from './capacity.js';
import { httpRules } from './rules.js';
import type { CapacityOptions } from '../wire/capacity.js';
import type { JsonRpcRules } from '../wire/jsonrpc-rules.js';

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
}

export interface HttpServing {
  /** Where clients connect, e.g. http://127.0.0.1:8765/mcp. */
  readonly url: string;
  /** Stops listening and aborts the calls still running. */
  close(): Promise<void>;
  /** Stops taking connections and settles once every POST in flight has been answered, or after `limitMs`. */
  drain(limitMs: number): Promise<void>;
}

export async function serveHttp(factory: McpServerFactory, options: HttpOptions): Promise<HttpServing> {
  const checkHostAndOrigin = hostGates(options.allowedHostnames);
  const gate = bearerGate(options.token);
  const onerror = options.onerror ? { onerror: options.onerror } : {};
  const modern = createMcpHandler(factory, { legacy: 'reject', ...onerror });
  const sessions = legacySessions(factory, { idleMs: SESSION_IDLE_MS, maxSessions: MAX_SESSIONS, ...onerror });
  const passThrough: Admission = (_inbound, serve) => serve();
  const ruled = options.rules ? httpRules(options.rules) : passThrough;
  const counted = options.capacity ? httpAdmission(options.capacity) : passThrough;
  // The rules first, then capacity: a refused request never takes a place.
  const admit: Admission = (inbound, serve) => ruled(inbound, () => counted(inbound, serve));
  /** One request, as the SDK's Node adapter hands it over; `res` says when its answer has been written. */
  async function answer(request: Request, res: ServerResponse): Promise<Response> {
    const auth = await gate(request.headers.get('authorization') ?? undefined);
    if (auth instanceof Response) return auth;
    const inbound = await read(request, (done) => (res.closed ? done() : res.once('close', done)));
    return admit(inbound, async () => {
      const { request, json } = inbound;
      const handling = { authInfo: auth, ...(json !== undefined ? { parsedBody: json } : {}) };
      return (await isLegacyRequest(request, json)) ? sessions.fetch(request, handling) : modern.fetch(request, handling);
    });
  }

  // POSTs not yet answered, so a stop can answer them first (GET streams stay open: they are not counted).
  let posts = 0;
  let settled: (() => void) | undefined;
  const hasToken = bearerMatches(options.token);
  // Headers must arrive within seconds (Node checks each second), not Node's default minute.
  const server = createServer(
    { headersTimeout: 5_000, connectionsCheckingInterval: 1_000 },
    (req: IncomingMessage, res: ServerResponse) => {
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
      void toNodeHandler({ fetch: (request) => answer(request, res) }, onerror)(req, res);
    },
  );
  const connections = guardConnections(server);
  await once(server.listen(options.port, options.host), 'listening').catch((error: NodeJS.ErrnoException) => {
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
      await modern.close();
      await sessions.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A POST's body, read once: its JSON is handed to the SDK parsed, and a body that is not JSON goes to
 * the SDK in a Request of the same text, for it to read and answer as it does.
 */
async function read(request: Request, whenSent: Inbound['whenSent']): Promise<Inbound> {
  if (request.method !== 'POST') return { request, text: '', json: undefined, whenSent };
  const text = await request.text();
  try {
    if (text !== '') return { request, text, json: JSON.parse(text), whenSent };
  } catch {
    // Not JSON: below.
  }
  return { request: new Request(request, { body: text }), text, json: undefined, whenSent };
}
