/**
 * 2025-11-25 over HTTP with sessions: an `initialize` opens a session (Mcp-Session-Id) with its own
 * server from the factory on the SDK's stateful WebStandardStreamableHTTPServerTransport, so a 2025
 * client's `notifications/cancelled` reaches the call it names, and GET streams and DELETE work as
 * that revision describes. Requests without a session (and that are not an `initialize`) are served
 * by the SDK's stateless fallback, as its createMcpHandler does. Sessions are bounded in number and idle time.
 */
import { randomUUID } from 'node:crypto';
import {
  legacyStatelessFallback,
  WebStandardStreamableHTTPServerTransport,
  type HandleRequestOptions,
  type McpServerFactory,
  type Transport,
} from '@modelcontextprotocol/server';
import { withEraResourceNotFound } from '../surface/resource-not-found.js';
import { messageOf } from './capacity.js';

export interface LegacySessionOptions {
  /** A session unused this long is closed (longer than any single call may run). */
  readonly idleMs: number;
  /** The most sessions open at once; a new one closes the least recently used. */
  readonly maxSessions: number;
  readonly onerror?: (error: Error) => void;
}

export interface LegacySessions {
  /** Serves a 2025-era request: in its session, opening one, or (no session named) statelessly. */
  fetch(request: Request, handling: HandleRequestOptions): Promise<Response>;
  close(): Promise<void>;
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  close(): Promise<void>;
  lastUsed: number;
}

export function legacySessions(factory: McpServerFactory, options: LegacySessionOptions): LegacySessions {
  const sessions = new Map<string, Session>();
  const stateless = legacyStatelessFallback(eraAnswers(factory), options.onerror);
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) if (now - session.lastUsed > options.idleMs) void drop(id);
    },
    Math.min(options.idleMs, 60_000),
  );
  sweeper.unref();

  async function drop(id: string): Promise<void> {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await session.close().catch((error: unknown) => options.onerror?.(error as Error));
  }

  async function open(request: Request, handling: HandleRequestOptions): Promise<Response> {
    if (sessions.size >= options.maxSessions) {
      const [oldest] = [...sessions].sort(([, a], [, b]) => a.lastUsed - b.lastUsed)[0]!;
      await drop(oldest);
    }
    const server = await factory({ era: 'legacy', ...(handling.authInfo ? { authInfo: handling.authInfo } : {}), requestInfo: request });
    let session: Session;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, session),
      onsessionclosed: (id) => void drop(id),
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
    return transport.handleRequest(request, handling);
  }

  return {
    async fetch(request, handling) {
      const id = request.headers.get('mcp-session-id');
      if (id !== null) {
        const session = sessions.get(id);
        // 404 tells a 2025 client its session is gone and to initialize again.
        if (!session)
          return Response.json(
            { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found; initialize again' }, id: null },
            { status: 404 },
          );
        session.lastUsed = Date.now();
        return session.transport.handleRequest(request, handling);
      }
      if (messageOf(handling.parsedBody)?.method === 'initialize') return open(request, handling);
      return stateless(request, handling);
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
