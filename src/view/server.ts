/**
 * The live view's web server (`--view`): a page that shows the panes live and the audit trail
 * beside them, read-only for the panes. Behind the same gates as MCP over HTTP (http-auth.ts): a
 * foreign Host or Origin is 403, then the token: `/?token=TOKEN` trades it for an HttpOnly,
 * SameSite=Strict cookie and redirects to `/`; without token or cookie, 401. GET serves the page
 * and its event stream; the only POSTs are the answers to calls waiting for a person and the
 * pause (approvals.ts), and nothing read from a request reaches a pane.
 */
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { EngineRegistry } from '../core/index.js';
import { hostGates, tokenCheck } from '../mcp/http/auth.js';
import type { AuditTrail } from '../mcp/tools/audit.js';
import type { ApprovalBoard } from '../mcp/approvals/board.js';
import { answerPost, CsrfTokens, isApprovalPost } from './approvals.js';
import { PaneFeed } from './feed.js';
import { pageHtml } from './page.js';

export interface ViewOptions {
  readonly host: string;
  /** 0 picks a free port; ViewServing.url says which. */
  readonly port: number;
  readonly token: string;
  /** Hostnames accepted in Host and Origin besides the loopback names (--allow-host). */
  readonly allowedHostnames: readonly string[];
  readonly registry: EngineRegistry;
  /** The audit trail the page shows beside the panes. */
  readonly trail: AuditTrail;
  /** The calls waiting for a person, and the pause: the page's only input. */
  readonly approvals?: ApprovalBoard;
}

export interface ViewServing {
  /** Where the page is, e.g. http://127.0.0.1:8766/ */
  readonly url: string;
  /** Ends every page's feed (their pane streams are let go) and stops listening. */
  close(): Promise<void>;
}

const COOKIE = 'tmux_mcp_view';

/** Headers on every answer: nothing cached, nothing framed, no referrer (the first URL carries the token). */
const BASE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};
/** The page loads only its own script and style; xterm sets inline styles for its cells and themes. */
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export async function serveView(options: ViewOptions): Promise<ViewServing> {
  const assets = loadAssets();
  const gates = hostGates(options.allowedHostnames);
  const tokenMatches = tokenCheck(options.token);
  // The cookie is derived from the token, never the token itself: seen in a browser it gives nothing for --http.
  const cookieValue = createHmac('sha256', options.token).update('tmux-mcp view cookie').digest('base64url');
  const cookieMatches = tokenCheck(cookieValue);
  const feeds = new Set<PaneFeed>();
  const csrf = new CsrfTokens();

  const server = createServer((req, res) => {
    if (!gates(req, res)) return;
    const url = new URL(req.url ?? '/', 'http://view.invalid');
    if (req.method === 'POST' && options.approvals && isApprovalPost(url.pathname)) {
      answerPost(
        req,
        res,
        url.pathname,
        options.approvals,
        { csrf, authorized: (r) => authorized(r, cookieMatches, tokenMatches) },
        BASE_HEADERS,
      );
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      // Read-only for panes: no request types into one.
      res.writeHead(405, { ...BASE_HEADERS, allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('the live view is read-only\n');
      return;
    }
    const presented = url.searchParams.get('token');
    if (url.pathname === '/' && presented !== null) {
      if (!tokenMatches(presented)) return unauthorized(res);
      res
        .writeHead(303, { ...BASE_HEADERS, location: '/', 'set-cookie': `${COOKIE}=${cookieValue}; HttpOnly; SameSite=Strict; Path=/` })
        .end();
      return;
    }
    if (!authorized(req, cookieMatches, tokenMatches)) return unauthorized(res);
    route(url.pathname, req, res);
  });

  function route(path: string, req: IncomingMessage, res: ServerResponse): void {
    if (path === '/')
      return send(res, 'text/html; charset=utf-8', pageHtml(csrf.issue(), options.approvals !== undefined), {
        'content-security-policy': PAGE_CSP,
      });
    if (path === '/view.js') return send(res, 'text/javascript; charset=utf-8', assets.script);
    if (path === '/xterm.css') return send(res, 'text/css; charset=utf-8', assets.css);
    if (path === '/events') {
      if (req.method === 'HEAD') return void res.writeHead(200, { ...BASE_HEADERS, 'content-type': 'text/event-stream' }).end();
      const feed = new PaneFeed(res, {
        registry: options.registry,
        trail: options.trail,
        ...(options.approvals ? { approvals: options.approvals } : {}),
      });
      feeds.add(feed);
      res.on('close', () => {
        feeds.delete(feed);
        feed.close();
      });
      feed.start();
      return;
    }
    res.writeHead(404, { ...BASE_HEADERS, 'content-type': 'text/plain' }).end('not found\n');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${hostInUrl}:${port}/`,
    async close() {
      for (const feed of feeds) feed.close();
      feeds.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The view cookie, or (for scripts) the token as a bearer header. */
function authorized(req: IncomingMessage, cookieMatches: (value: string) => boolean, tokenMatches: (value: string) => boolean): boolean {
  const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (bearer !== undefined && tokenMatches(bearer)) return true;
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === COOKIE && cookieMatches(part.slice(eq + 1).trim())) return true;
  }
  return false;
}

function unauthorized(res: ServerResponse): void {
  res
    .writeHead(401, { ...BASE_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' })
    .end('open the link tmux-mcp printed (/?token=...) or add ?token=TOKEN to this address\n');
}

function send(res: ServerResponse, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(200, { ...BASE_HEADERS, 'content-type': type, ...extra }).end(body);
}

/**
 * The page's script (with xterm bundled in) and xterm's stylesheet, built into dist/view/ by
 * scripts/build.mjs from the @xterm/xterm package: nothing is fetched from elsewhere.
 */
function loadAssets(): { script: Buffer; css: Buffer } {
  const candidates = [new URL('./view/', import.meta.url), new URL('../../dist/view/', import.meta.url)].map((url) => fileURLToPath(url));
  const dir = candidates.find((each) => existsSync(`${each}/view.js`));
  if (!dir) throw new Error(`the live view's page is not built (looked in ${candidates.join(', ')}); run npm run build`);
  return { script: readFileSync(`${dir}/view.js`), css: readFileSync(`${dir}/xterm.css`) };
}
