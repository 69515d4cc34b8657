/**
 * `--view`: the live read-only page, driven by Debian's headless Chromium through puppeteer-core
 * against real tmux: the gates (401 without token or cookie, 403 for a foreign Host or Origin),
 * the token-for-cookie exchange, pane text on the page within a second of tmux showing it, the
 * audit trail beside it, and keys typed on the page reaching no pane. Also beside --http, one engine.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { test } from 'node:test';
import { CLI, connectHttp, startMcp } from '../../fixture/mcp.js';
import { startHttp } from '../../fixture/http.js';
import { until } from '../../fixture/until.js';
import { privateTmux } from '../../fixture/tmux.js';
import { browser, viewUrl } from '../../fixture/view.js';

const TOKEN = 'view-token-0123456789abcdef';

/** One raw request with exactly these headers (node:http lets a test set Host); the body is dropped. */
function get(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode!, headers: res.headers });
      res.destroy();
    });
    req.on('error', reject);
    req.end();
  });
}

test('view: 401 without token or cookie, 403 for a foreign Host or Origin, the token traded for a cookie', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'gates' });
  const mcp = await startMcp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN }, args: ['--view', '127.0.0.1:0'] });
  const url = await viewUrl(mcp.stderr);
  const port = new URL(url).port;

  for (const path of ['/', '/events', '/view.js', '/xterm.css', '/nothing'])
    assert.equal((await get(url + path.slice(1))).status, 401, path);
  assert.equal((await get(`${url}?token=wrong-token`)).status, 401);
  assert.equal((await get(url, { host: 'evil.example' })).status, 403, 'a foreign Host: DNS rebinding');
  assert.equal((await get(url, { host: `evil.example:${port}` })).status, 403);
  assert.equal((await get(url, { origin: 'http://evil.example' })).status, 403, 'a foreign Origin');
  assert.equal((await get(`${url}?token=${TOKEN}`, { host: 'evil.example' })).status, 403, 'the Host gate comes before the token');

  const traded = await get(`${url}?token=${TOKEN}`);
  assert.equal(traded.status, 303);
  assert.equal(traded.headers.location, '/');
  const cookie = String((traded.headers['set-cookie'] as string[])[0]);
  assert.match(cookie, /^tmux_mcp_view=[\w-]+; HttpOnly; SameSite=Strict; Path=\/$/);
  assert.ok(!cookie.includes(TOKEN), 'the cookie is not the token');
  const pair = cookie.split(';')[0]!;
  assert.equal((await get(url, { cookie: pair })).status, 200);
  assert.equal((await get(url, { cookie: 'tmux_mcp_view=forged' })).status, 401);
  // Read-only: nothing but GET is served, with the cookie too.
  for (const method of ['POST', 'PUT', 'DELETE']) assert.equal((await get(`${url}events`, { cookie: pair }, method)).status, 405, method);

  // Beyond loopback, a generated token is refused at start-up.
  const open = spawnSync(process.execPath, [CLI, '--view', '0.0.0.0:0'], { env: tmux.env, input: '', encoding: 'utf8', timeout: 30_000 });
  assert.equal(open.status, 2);
  assert.match(open.stderr, /--view 0\.0\.0\.0:0 listens beyond this machine: choose a token/);
});

test('view in Chromium: pane text live within 1 s, colours, the audit trail, and typing on the page reaches no pane', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'live' });
  const mcp = await startMcp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN }, args: ['--view', '127.0.0.1:0'] });
  const url = await viewUrl(mcp.stderr);
  const chromium = await browser(t);
  const page = await chromium.newPage();
  const methods: string[] = [];
  page.on('request', (req) => void methods.push(`${req.method()} ${new URL(req.url()).pathname}`));

  await page.goto(`${url}?token=${TOKEN}`);
  assert.equal(page.url(), url, 'the token link lands on / with the token gone from the address');
  const [cookie] = await page.cookies();
  assert.deepEqual([cookie?.name, cookie?.httpOnly, cookie?.sameSite], ['tmux_mcp_view', true, 'Strict']);
  const tile = `.pane[data-key="local:${pane}"]`;
  await page.waitForSelector(`${tile} .xterm-rows`, { timeout: 10_000 });
  const paneText = () => page.$eval(`${tile} .xterm-rows`, (rows) => rows.textContent ?? '');

  // Printed by the agent, through the MCP server: on screen in tmux first, then on the page within a second.
  await mcp.ok('send_keys', { paneId: pane, keys: ["printf 'view-%s \\033[31mred-text\\033[0m\\n' $((6*7))"], literal: true, enter: true });
  await until('tmux shows the output', async () => /view-42 red-text/.test(await tmux.tmux('capture-pane', '-p', '-t', pane)));
  await page.waitForFunction(
    (sel) => /view-42 red-text/.test(document.querySelector(sel)?.textContent ?? ''),
    { timeout: 1000, polling: 50 },
    `${tile} .xterm-rows`,
  );
  // The colour is rendered, not stripped: xterm's DOM renderer marks red (colour 1) with a class.
  const red = await page.$$eval(`${tile} .xterm-rows span`, (spans) =>
    spans
      .filter((s) => s.textContent?.includes('red-text'))
      .map((s) => s.className)
      .join(' '),
  );
  assert.match(red, /xterm-fg-1\b/, red);
  // The call is in the trail beside it.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('#audit li')].some(
        (li) => li.querySelector('.tool')?.textContent === 'send_keys' && li.querySelector('.ok') !== null,
      ),
    { timeout: 5000 },
  );

  // A full-screen program: its screen (the alternate one) is what the page shows.
  await tmux.tmux('send-keys', '-t', pane, "printf '\\033[?1049h\\033[2J\\033[5;10Hfull-screen-app'; sleep 30", 'Enter');
  await page.waitForFunction(
    (sel) => /full-screen-app/.test(document.querySelector(sel)?.textContent ?? ''),
    { timeout: 5000, polling: 50 },
    `${tile} .xterm-rows`,
  );
  assert.ok(!/view-42/.test(await paneText()), 'the normal screen is hidden behind the alternate one');
  await tmux.tmux('send-keys', '-t', pane, 'C-c', '');
  await tmux.tmux('send-keys', '-t', pane, "printf '\\033[?1049l'", 'Enter');

  // Typing on the page: focus the terminal and type. Nothing may reach the pane.
  await page.click(`${tile} .xterm-screen`);
  await page.keyboard.type('echo typed-on-page');
  await page.keyboard.press('Enter');
  await tmux.typeAndWait(pane, 'echo marker-$((1+1))');
  await page.waitForFunction(
    (sel) => /marker-2/.test(document.querySelector(sel)?.textContent ?? ''),
    { timeout: 5000, polling: 50 },
    `${tile} .xterm-rows`,
  );
  const shown = await tmux.tmux('capture-pane', '-p', '-t', pane, '-S', '-');
  assert.match(shown, /marker-2/);
  assert.ok(!shown.includes('typed-on-page'), `keys typed on the page reached the pane:\n${shown}`);
  assert.ok(!(await paneText()).includes('typed-on-page'));
  assert.ok(methods.length >= 4 && methods.every((m) => m.startsWith('GET ')), `the page only ever fetched: ${methods.join(', ')}`);

  // The page's text is in the DOM for screen readers and tests alike, and a page left open costs its streams only.
  await page.close();
});

test("view beside --http: one process, one engine; a call over HTTP shows in the view's trail", async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'both' });
  const server = await startHttp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN }, args: ['--view', '127.0.0.1:0'] });
  const url = await viewUrl(server.stderr);
  assert.match(server.stderr(), /HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp, view at http:\/\/127\.0\.0\.1:\d+\//);
  // The event stream, read as a script would, with the token as a bearer header.
  let events = '';
  const stream = request(`${url}events`, { headers: { authorization: `Bearer ${TOKEN}` } });
  stream.on('response', (res) => res.on('data', (chunk: Buffer) => (events += chunk.toString('utf8'))));
  stream.on('error', () => {});
  stream.end();
  t.after(() => void stream.destroy());
  await until('the pane in the feed', () => events.includes(`"key":"local:${pane}"`) && events.includes('event: screen'));
  const mcp = await connectHttp(t, { url: server.url, token: server.token });
  await mcp.ok('send_keys', { paneId: pane, keys: ['echo over-http-$((3*3))'], literal: true, enter: true });
  await until('the call in the trail', () => /event: audit\ndata: \{[^\n]*"tool":"send_keys"[^\n]*"outcome":"ok"/.test(events));
  await until('its output in the feed', () => /event: output\ndata: [^\n]*over-http-9/.test(events));
  // A pane that appears comes into view with its screen; one that goes leaves the list.
  const added = (await tmux.tmux('split-window', '-d', '-P', '-F', '#{pane_id}', '-t', pane, 'sh')).trim();
  await until(
    'the new pane listed and drawn',
    () => events.includes(`"key":"local:${added}"`) && events.includes(`event: screen\ndata: {"key":"local:${added}"`),
  );
  await tmux.tmux('kill-pane', '-t', added);
  await until('the list without it', () => {
    const lists = [...events.matchAll(/event: panes\ndata: (.*)/g)];
    const last = lists.at(-1)?.[1] ?? '';
    return last.includes(`"key":"local:${pane}"`) && !last.includes(`"key":"local:${added}"`) && lists.length >= 3;
  });
});
