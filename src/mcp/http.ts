/**
 * MCP over Streamable HTTP in both protocol eras, for any profile: the SDK's `createMcpHandler`
 * serves 2026-07-28 requests and, statelessly, 2025-11-25 ones from the same server factory, behind
 * three gates in this order: the Host header and the Origin header (DNS-rebinding defence, 403), then
 * the bearer token (401). Every request gets a fresh server from the factory, all sharing one
 * profile context and so one engine; a client that drops its connection aborts its call.
 */
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostHeaderValidation, originValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, localhostAllowedHostnames, type McpServerFactory } from '@modelcontextprotocol/server';
import { bearerGate } from './http-auth.js';

/** The one path the server answers on; anything else is 404. */
export const MCP_PATH = '/mcp';

export interface HttpOptions {
  readonly host: string;
  /** 0 picks a free port; `HttpServing.url` says which. */
  readonly port: number;
  readonly token: string;
  /** Hostnames accepted in Host and Origin besides localhost, 127.0.0.1 and [::1]. */
  readonly allowedHostnames: readonly string[];
  readonly onerror?: (error: Error) => void;
}

export interface HttpServing {
  /** Where clients connect, e.g. http://127.0.0.1:8765/mcp. */
  readonly url: string;
  /** Stops listening and aborts the calls still running. */
  close(): Promise<void>;
}

export async function serveHttp(factory: McpServerFactory, options: HttpOptions): Promise<HttpServing> {
  const allowed = [...localhostAllowedHostnames(), ...options.allowedHostnames];
  const checkHost = hostHeaderValidation(allowed);
  const checkOrigin = originValidation(allowed);
  const gate = bearerGate(options.token);
  const handler = createMcpHandler(factory, { ...(options.onerror ? { onerror: options.onerror } : {}) });
  const serve = toNodeHandler(
    {
      async fetch(request) {
        const auth = await gate(request);
        return auth instanceof Response ? auth : handler.fetch(request, { authInfo: auth });
      },
    },
    { ...(options.onerror ? { onerror: options.onerror } : {}) },
  );

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!checkHost(req, res) || !checkOrigin(req, res)) return;
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
  await listen(server, options.host, options.port);
  const { port } = server.address() as AddressInfo;
  const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${hostInUrl}:${port}${MCP_PATH}`,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
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
