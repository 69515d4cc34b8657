/**
 * Connections that never finish their headers (a slowloris) cannot hold the HTTP server: each is
 * closed a few seconds after it connects unless it sends the bearer token, at most 128 of them stay
 * open at once, and a client with the token is served throughout.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { startHttp } from '../../fixture/http.js';
import { connectHttp } from '../../fixture/mcp.js';
import { privateTmux } from '../../fixture/tmux.js';
import { until } from '../../fixture/until.js';

const SLOW = 500;

test(`HTTP: ${SLOW} connections that never finish their headers are bounded and closed, while a client with the token is served`, async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'main' });
  const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: 'a-token-of-enough-length' } });
  const url = new URL(server.url);
  const mcp = await connectHttp(t, { url: server.url, token: server.token });
  assert.equal((await mcp.ok('list_sessions')).sessions.length, 1);

  let closed = 0;
  const sockets: Socket[] = [];
  t.after(() => sockets.forEach((socket) => socket.destroy()));
  await Promise.all(
    Array.from(
      { length: SLOW },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect({ host: url.hostname, port: Number(url.port) }, () => {
            // A request line and one header, then nothing: the headers never end.
            socket.write(`POST /mcp HTTP/1.1\r\nHost: ${url.host}\r\n`);
            resolve();
          });
          socket.on('error', () => resolve());
          socket.on('close', () => closed++);
          sockets.push(socket);
        }),
    ),
  );
  // Served beside them, over fresh connections too.
  for (let i = 0; i < 5; i++) assert.equal((await mcp.ok('list_sessions')).sessions.length, 1);
  const fresh = await connectHttp(t, { url: server.url, token: server.token });
  assert.equal((await fresh.ok('list_panes')).panes.length, 1);
  const openNow = SLOW - closed;
  t.diagnostic(`${openNow} of ${SLOW} slow connections open after the working client's calls`);
  assert.ok(openNow <= 128, `${openNow} unauthenticated connections held open`);
  // Every one is closed by the server within its few seconds (the test's own deadline is far beyond).
  await until(
    () => `the server to close the slow connections (${SLOW - closed} still open)`,
    () => closed === SLOW,
    30_000,
  );
  assert.equal((await mcp.ok('list_sessions')).sessions.length, 1, 'still served');
});
