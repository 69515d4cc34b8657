/**
 * Serves a Web-standard fetch handler on Node's http server, as the SDK's toNodeHandler does (the
 * same 413 and 500 answers, a closed response aborting the request's signal, streamed bodies with
 * backpressure), but reading the request's body once, as bytes, and handing it to the handler
 * parsed beside the Request: nothing before the SDK clones or reads it again, and a Request whose
 * JSON is already parsed is built without a body stream the SDK would not read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';
import { postBody, type PostBody } from './body.js';

export type BodyFetch = (request: Request, body: PostBody) => Promise<Response>;

class BodyTooLarge extends Error {}

export function nodeFetch(fetch: BodyFetch, options: { onerror?: (error: Error) => void; maxBytes?: number } = {}) {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let finished = false;
    const abort = new AbortController();
    res.on('close', () => {
      if (!finished) abort.abort();
    });
    if (res.destroyed) abort.abort();
    let response: Response;
    let body: PostBody | undefined;
    try {
      const method = (req.method ?? 'GET').toUpperCase();
      const bytes = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req, maxBytes);
      body = postBody(method, bytes);
      response = await fetch(webRequest(req, method, bytes, body, abort.signal), body);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        response = Response.json(
          { jsonrpc: '2.0', error: { code: -32000, message: `Payload Too Large: Request body must not exceed ${maxBytes} bytes` }, id: null },
          { status: 413, headers: { connection: 'close' } },
        );
      } else {
        options.onerror?.(error instanceof Error ? error : new Error(String(error)));
        response = Response.json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: echoableId(body?.json) }, { status: 500 });
      }
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) headers[name] = value;
    res.writeHead(response.status, headers);
    if (response.body === null) {
      finished = true;
      res.end();
      return;
    }
    await pump(response.body, res, abort.signal);
    finished = true;
    res.end();
  };
}

/** The body's bytes, or BodyTooLarge past `maxBytes` (declared or received). */
async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (Number(declared) > maxBytes) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    received += bytes.byteLength;
    if (received > maxBytes) throw new BodyTooLarge();
    chunks.push(bytes);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
}

function webRequest(req: IncomingMessage, method: string, bytes: Buffer | undefined, body: PostBody, signal: AbortSignal): Request {
  const host = req.headers.host ?? 'localhost';
  const headers = new Headers();
  for (const name in req.headers) {
    const value = req.headers[name];
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  // Parsed JSON goes to the SDK as parsedBody, so it never reads this body; anything else it reads itself.
  const withBody = bytes !== undefined && bytes.length > 0 && body.json === undefined;
  return new Request(`http://${host}${req.url ?? '/'}`, { method, headers, signal, ...(withBody ? { body: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Uint8Array<ArrayBuffer> } : {}) });
}

/** Writes a streamed body (SSE included) as it comes, waiting for the socket to drain; a closed response stops it. */
async function pump(stream: ReadableStream<Uint8Array>, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const reader = stream.getReader();
  let wake: (() => void) | undefined;
  const release = () => {
    wake?.();
    wake = undefined;
  };
  res.on('drain', release);
  signal.addEventListener('abort', release, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) break;
      // Held until the microtasks now running are done: a body that ends at once (one answer, then the
      // end of its stream) leaves in one write with the response's end, not one for each.
      if (!res.writableCorked) {
        res.cork();
        process.nextTick(() => res.uncork());
      }
      if (!res.write(value) && !signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
    }
  } catch {
    // A stream that fails ends the response, as the SDK's adapter does.
  } finally {
    res.off('drain', release);
    signal.removeEventListener('abort', release);
    if (signal.aborted) void reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

function echoableId(json: unknown): string | number | null {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return null;
  const { method, id } = json as { method?: unknown; id?: unknown };
  if (typeof method !== 'string') return null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
