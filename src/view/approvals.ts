/**
 * The live view's only input: Approve and Deny on a waiting call, and Pause / Resume. Each is a
 * POST that must carry the page's session (cookie, or the token as a bearer), a CSRF token the page
 * was served with, and an Origin naming this very server; anything short of that is 403 before the
 * body is read. Nothing here reaches a pane: it answers questions on the approval board.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApprovalBoard } from '../mcp/approvals/board.js';

/** The largest body a POST may carry (a decision and a reason). */
const MAX_BODY = 4096;

/** Per-page CSRF tokens: a fresh nonce for every page served, with its HMAC under a key of this run. */
export class CsrfTokens {
  readonly #key = randomBytes(32);

  /** A token for one page. */
  issue(): string {
    const nonce = randomBytes(16).toString('base64url');
    return `${nonce}.${this.#mac(nonce)}`;
  }

  valid(token: string | undefined): boolean {
    const [nonce, mac, extra] = (token ?? '').split('.');
    if (!nonce || !mac || extra !== undefined) return false;
    const expected = Buffer.from(this.#mac(nonce));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #mac(nonce: string): string {
    return createHmac('sha256', this.#key).update(nonce).digest('base64url');
  }
}

export interface PostChecks {
  readonly csrf: CsrfTokens;
  /** The page's session: its cookie or the bearer token. */
  readonly authorized: (req: IncomingMessage) => boolean;
}

/** Whether `req` is a POST this view answers; false leaves it to the other routes. */
export function isApprovalPost(path: string): boolean {
  return path === '/pause' || /^\/approvals\/[A-Za-z0-9_-]{1,64}$/.test(path);
}

/** Answers a POST to /approvals/ID ({decision, reason}) or /pause ({paused}), once its checks pass. */
export function answerPost(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  board: ApprovalBoard,
  checks: PostChecks,
  headers: Record<string, string>,
): void {
  const reply = (status: number, body: object) => {
    if (!res.headersSent) res.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const forbidden = (why: string) => reply(403, { error: why });
  if (!sameOrigin(req)) return forbidden('the Origin header must name this server');
  if (!checks.authorized(req)) return forbidden('open the page with the link tmux-mcp printed first');
  if (!checks.csrf.valid(header(req, 'x-csrf-token'))) return forbidden("the page's CSRF token is missing or wrong; reload the page");
  if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) return reply(415, { error: 'send JSON' });
  readBody(req).then(
    (body) => {
      if (path === '/pause') {
        if (typeof body.paused !== 'boolean') return reply(400, { error: 'paused must be true or false' });
        board.setPaused(body.paused);
        return reply(200, { paused: board.paused });
      }
      if (body.decision !== 'approve' && body.decision !== 'deny') return reply(400, { error: 'decision must be "approve" or "deny"' });
      if (body.reason !== undefined && typeof body.reason !== 'string') return reply(400, { error: 'reason must be text' });
      const id = path.slice('/approvals/'.length);
      if (!board.answer(id, body.decision, body.reason))
        return reply(409, { error: 'that call no longer waits: it was answered elsewhere, withdrawn, or ran out of time' });
      return reply(200, { answered: body.decision });
    },
    (error: Error) => reply(400, { error: error.message }),
  );
}

/** The Origin a browser sends with a POST must be this server as the browser reached it (its Host). */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = header(req, 'origin');
  const host = header(req, 'host');
  if (!origin || !host) return false;
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && url.host === host.toLowerCase();
  } catch {
    return false;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error(`the body is over ${MAX_BODY} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
        resolve(value as Record<string, unknown>);
      } catch {
        reject(new Error('the body is not a JSON object'));
      }
    });
    req.on('error', reject);
  });
}
