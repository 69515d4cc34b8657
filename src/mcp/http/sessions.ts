/**
 * 2025-11-25 over HTTP with sessions: an `initialize` opens a session (Mcp-Session-Id) with its own
 * server from the factory on its own transport (session-transport.ts), so a 2025 client's
 * `notifications/cancelled` reaches the call it names, and GET streams and DELETE work as that
 * revision describes. Requests without a session (and that are not an `initialize`) are served
 * statelessly, as the SDK's createMcpHandler does. Sessions are bounded in number and idle time.
 */
import { legacyStatelessFallback, type AuthInfo, type HandleRequestOptions, type McpServerFactory, type Transport } from '@modelcontextprotocol/server';
import { withEraResourceNotFound } from '../surface/resource-not-found.js';
import { messageOf, parsedFor } from './body.js';
import type { Exchange } from './exchange.js';
import { SessionTransport } from './session-transport.js';
import { sessionCalls } from './session-calls.js';
import type { DirectCalls } from '../server.js';

export interface LegacySessionOptions {
  /** When given, each session answers its plainest calls through these, without its server (session-calls.ts). */
  readonly calls?: DirectCalls;
  /** A session unused this long is closed (longer than any single call may run). */
  readonly idleMs: number;
  /** The most sessions open at once; a new one closes the least recently used. */
  readonly maxSessions: number;
  readonly onerror?: (error: Error) => void;
}

export interface LegacySessions {
  /** Serves a 2025-era exchange: in its session, opening one, or (no session named) statelessly by the SDK. */
  serve(exchange: Exchange, authInfo: AuthInfo | undefined): Promise<void>;
  /** Sessions open now. */
  readonly size: number;
  close(): Promise<void>;
}

interface Session {
  readonly transport: SessionTransport;
  close(): Promise<void>;
  lastUsed: number;
}

export function legacySessions(factory: McpServerFactory, options: LegacySessionOptions): LegacySessions {
  const sessions = new Map<string, Session>();
  const stateless = legacyStatelessFallback(eraAnswers(factory), options.onerror);
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) if (now - session.lastUsed > options.idleMs) void drop(id);
  }, Math.min(options.idleMs, 60_000));
  sweeper.unref();

  async function drop(id: string): Promise<void> {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await session.close().catch((error: unknown) => options.onerror?.(error as Error));
  }

  async function open(exchange: Exchange, authInfo: AuthInfo | undefined): Promise<void> {
    if (sessions.size >= options.maxSessions) {
      const [oldest] = [...sessions].sort(([, a], [, b]) => a.lastUsed - b.lastUsed)[0]!;
      await drop(oldest);
    }
    const server = await factory({ era: 'legacy', ...(authInfo ? { authInfo } : {}), requestInfo: exchange.webRequest() });
    let session: Session;
    const identity = { session: () => transport.sessionId, clientName: () => ('getClientVersion' in server ? server : server.server).getClientVersion()?.name };
    const calls = options.calls ? { calls: sessionCalls(options.calls, identity, options.onerror) } : {};
    const transport: SessionTransport = new SessionTransport({
      onsessioninitialized: (id) => void sessions.set(id, session),
      onsessionclosed: (id) => void drop(id),
      ...calls,
    });
    session = {
      transport,
      lastUsed: Date.now(),
      close: async () => {
        await transport.close();
        await server.close();
      },
    };
    // The server answers through the wrapper (2025's resource-not-found code); requests still arrive at the transport.
    await server.connect(withEraResourceNotFound(transport));
    return transport.handle(exchange, authInfo);
  }

  return {
    async serve(exchange, authInfo) {
      const id = exchange.header('mcp-session-id');
      if (id !== undefined) {
        const session = sessions.get(id);
        // 404 tells a 2025 client its session is gone and to initialize again.
        if (!session) return exchange.json(404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found; initialize again' }, id: null });
        session.lastUsed = Date.now();
        return session.transport.handle(exchange, authInfo);
      }
      if (messageOf(exchange.body)?.method === 'initialize') return open(exchange, authInfo);
      const handling: HandleRequestOptions = { ...(authInfo ? { authInfo } : {}), ...parsedFor(exchange.body) };
      return exchange.send(await stateless(exchange.webRequest(), handling));
    },
    get size() {
      return sessions.size;
    },
    async close() {
      clearInterval(sweeper);
      await Promise.all([...sessions.keys()].map(drop));
    },
  };
}

/**
 * The factory for the SDK's stateless fallback, whose servers answer through the era wrapper too:
 * the fallback makes and connects its own transport for each request, so the wrapper goes in at
 * the server's connect.
 */
function eraAnswers(factory: McpServerFactory): McpServerFactory {
  return async (context) => {
    const server = await factory(context);
    const connect = server.connect.bind(server);
    server.connect = (transport: Transport) => connect(withEraResourceNotFound(transport));
    return server;
  };
}
