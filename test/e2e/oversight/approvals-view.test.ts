/**
 * --approve and the pause in the live view, driven by Debian's headless Chromium through
 * puppeteer-core against real tmux: a call a rule meets shows in "waiting for you" within a
 * second, Approve runs it, Deny (with a reason) refuses it with nothing typed; the answers are
 * POSTs that need the session cookie, the page's CSRF token and this server's Origin (403
 * otherwise); Pause holds a send_keys until Resume while reads still answer; `tmux-mcp call --url`
 * asks there too; the trail shows each question's line.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { test } from 'node:test';
import type { Page } from 'puppeteer-core';
import { CLI, connectHttp, startMcp } from '../../fixture/mcp.js';
import { startHttp } from '../../fixture/http.js';
import { until } from '../../fixture/until.js';
import { privateTmux } from '../../fixture/tmux.js';
import { neverTyped } from '../../fixture/approvals.js';
import { browser, viewUrl } from '../../fixture/view.js';

const TOKEN = 'view-token-0123456789abcdef';
const RULE = 'text:rm\\s+-rf';

/** Opens the page with the token link and waits until it is live. */
async function openView(t: { after: (fn: () => Promise<void>) => void }, url: string): Promise<Page> {
  const page = await (await browser(t)).newPage();
  await page.goto(`${url}?token=${TOKEN}`);
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'live', { timeout: 10_000 });
  return page;
}

/** The question on the page whose text shows `marker`, once it is there (within `ms`). */
async function question(page: Page, marker: string, ms: number): Promise<string> {
  const handle = await page.waitForFunction(
    (text) => [...document.querySelectorAll('#questions li')].find((li) => li.textContent?.includes(text))?.getAttribute('data-id'),
    { timeout: ms, polling: 20 },
    marker,
  );
  return (await handle.jsonValue()) as string;
}

/** One raw POST with exactly these headers and body. */
function post(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('view: a waiting call shows within 1 s; Approve runs it, Deny refuses it with the reason; the trail shows both questions', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'agent' });
  const mcp = await startMcp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN }, args: ['--view', '127.0.0.1:0', '--approve', RULE] });
  const page = await openView(t, await viewUrl(mcp.stderr));
  const methods: string[] = [];
  page.on('request', (req) => void methods.push(`${req.method()} ${new URL(req.url()).pathname}`));

  // The server's first call loads what calls need (the argument validators): not the question's time.
  await mcp.ok('list_sessions');
  // This client cannot be asked (no elicitation): the view is the channel.
  const approved = mcp.call('send_keys', { paneId: pane, keys: ['echo rm -rf view-approved-1'], literal: true, enter: true });
  const id = await question(page, 'echo rm -rf view-approved-1', 1000);
  const shown = await page.$eval(`#questions li[data-id="${id}"]`, (li) => li.textContent ?? '');
  for (const fact of ['send_keys', `local:${pane}`, 'session agent', `rule ${RULE}`, 'refused unanswered in'])
    assert.ok(shown.includes(fact), `${fact} in: ${shown}`);
  assert.equal(await page.$eval('#waiting', (el) => (el as HTMLElement).hidden), false);
  await page.click(`#questions li[data-id="${id}"] .approve`);
  const ran = await approved;
  assert.equal(ran.isError, undefined, JSON.stringify(ran));
  await until('the approved command ran', async () => /^rm -rf view-approved-1$/m.test(await tmux.tmux('capture-pane', '-p', '-t', pane)));
  await page.waitForFunction(
    () => document.querySelectorAll('#questions li').length === 0 && (document.getElementById('waiting') as HTMLElement).hidden,
    { timeout: 5000 },
  );

  const denied = mcp.call('send_keys', { paneId: pane, keys: ['echo rm -rf view-denied-2'], literal: true, enter: true });
  const second = await question(page, 'view-denied-2', 1000);
  await page.type(`#questions li[data-id="${second}"] input`, 'use the scratch pane');
  await page.click(`#questions li[data-id="${second}"] .deny`);
  const refused = await denied;
  assert.equal(refused.isError, true);
  assert.match(
    refused.content[0]!.text!,
    /send_keys was denied by a person in the live view \(--approve text:rm\\s\+-rf\): use the scratch pane; nothing was sent/,
  );
  await neverTyped(tmux, pane, 'view-denied-2');

  // Each question is a line of the trail beside its call's.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('#audit li.approval')]
        .map((li) => li.textContent)
        .join('|')
        .match(/approved[\s\S]*denied|denied[\s\S]*approved/),
    { timeout: 5000 },
  );
  const lines = await page.$$eval('#audit li.approval', (items) => items.map((li) => li.textContent ?? ''));
  assert.ok(
    lines.some((line) => /denied/.test(line) && /answered in the view/.test(line) && /reason: use the scratch pane/.test(line)),
    lines.join('\n'),
  );
  // The page's only requests besides GETs were its two answers.
  assert.deepEqual(
    methods.filter((m) => !m.startsWith('GET ')),
    [`POST /approvals/${id}`, `POST /approvals/${second}`],
  );
});

test("view: an answer without the cookie, the CSRF token or this server's Origin is 403, and answers nothing", async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, {
    env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN },
    args: ['--view', '127.0.0.1:0', '--approve', RULE, '--approve-timeout', '20'],
  });
  const url = await viewUrl(mcp.stderr);
  const page = await openView(t, url);
  await mcp.ok('list_sessions');
  const waiting = mcp.call('send_keys', { paneId: pane, keys: ['echo rm -rf forged-1'], literal: true, enter: true });
  const id = await question(page, 'forged-1', 1000);
  const csrf = await page.$eval('meta[name="csrf-token"]', (meta) => (meta as HTMLMetaElement).content);
  const [cookie] = await page.cookies();
  const origin = new URL(url).origin;
  const answer = `${url}approvals/${id}`;
  const body = JSON.stringify({ decision: 'approve' });
  const good = { cookie: `${cookie!.name}=${cookie!.value}`, 'x-csrf-token': csrf, origin, 'content-type': 'application/json' };
  const without = (name: string) => Object.fromEntries(Object.entries(good).filter(([key]) => key !== name));

  assert.equal(await post(answer, without('x-csrf-token'), body), 403, 'no CSRF token');
  assert.equal(await post(answer, { ...good, 'x-csrf-token': `${csrf.split('.')[0]}.forged` }, body), 403, 'a forged CSRF token');
  assert.equal(await post(answer, without('origin'), body), 403, 'no Origin');
  assert.equal(await post(answer, { ...good, origin: 'http://evil.example' }, body), 403, 'a foreign Origin');
  assert.equal(
    await post(answer, { ...good, origin: `http://localhost:${new URL(url).port}` }, body),
    403,
    "an allowed name that is not this page's origin",
  );
  assert.equal(await post(answer, without('cookie'), body), 403, 'no session cookie');
  assert.equal(await post(`${url}pause`, without('x-csrf-token'), JSON.stringify({ paused: true })), 403, 'pause without the token');
  // Nothing was answered: the call still waits, and the page still offers it.
  assert.equal(await page.$$eval('#questions li', (items) => items.length), 1);
  // With all three, the answer is taken.
  assert.equal(await post(answer, good, JSON.stringify({ decision: 'deny', reason: 'checked' })), 200);
  assert.match((await waiting).content[0]!.text!, /denied by a person in the live view .*: checked/);
  assert.equal(await post(answer, good, body), 409, 'a call no longer waiting');
  await neverTyped(tmux, pane, 'forged-1');
});

test('view: Pause holds a send_keys (reads still answer) until Resume, in order; --start-paused starts so', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN }, args: ['--view', '127.0.0.1:0', '--start-paused'] });
  const page = await openView(t, await viewUrl(mcp.stderr));
  assert.match(mcp.stderr(), /, paused, view at/);
  await page.waitForFunction(() => document.getElementById('pause')?.textContent === 'Resume', { timeout: 5000 });
  await mcp.ok('list_sessions');

  const first = mcp.call('send_keys', { paneId: pane, keys: ['echo held-1'], literal: true, enter: true });
  await question(page, 'held-1', 1000);
  const second = mcp.call('send_keys', { paneId: pane, keys: ['echo held-2'], literal: true, enter: true });
  await question(page, 'held-2', 1000);
  assert.match(await page.$eval('#questions', (el) => el.textContent ?? ''), /held: the server is paused/);
  // Reads answer while paused.
  await mcp.ok('capture_pane', { paneId: pane });
  assert.ok(!(await tmux.tmux('capture-pane', '-p', '-t', pane)).includes('held-1'), 'a held call typed nothing');

  await page.click('#pause');
  await Promise.all([first, second]).then((results) =>
    results.forEach((result) => assert.equal(result.isError, undefined, JSON.stringify(result))),
  );
  await until('both ran, in order', async () => /held-1\n[\s\S]*held-2/.test(await tmux.tmux('capture-pane', '-p', '-t', pane)));
  await page.waitForFunction(
    () => document.getElementById('pause')?.textContent === 'Pause' && document.querySelectorAll('#questions li').length === 0,
    { timeout: 5000 },
  );

  // Paused again from the page: a new call waits; Deny on it refuses it.
  await page.click('#pause');
  await page.waitForFunction(() => document.getElementById('pause')?.textContent === 'Resume', { timeout: 5000 });
  const third = mcp.call('send_keys', { paneId: pane, keys: ['echo held-3'], literal: true, enter: true });
  const id = await question(page, 'held-3', 1000);
  await page.click(`#questions li[data-id="${id}"] .deny`);
  assert.match((await third).content[0]!.text!, /send_keys was denied by a person in the live view \(the server is paused\)/);
  await page.click('#pause');
  await neverTyped(tmux, pane, 'held-3');
});

test('view beside --http: `tmux-mcp call --url` and an HTTP client without elicitation are asked in the view', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const server = await startHttp(t, {
    env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN },
    args: ['--view', '127.0.0.1:0', '--approve', 'tool:send_keys'],
  });
  const page = await openView(t, await viewUrl(server.stderr));

  const child = spawn(
    process.execPath,
    [
      CLI,
      'call',
      'send_keys',
      JSON.stringify({ paneId: pane, keys: ['echo from-call-1'], literal: true, enter: true }),
      '--url',
      server.url,
    ],
    {
      env: { ...tmux.env, TMUX_MCP_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  t.after(() => void child.kill());
  const id = await question(page, 'from-call-1', 5000);
  await page.click(`#questions li[data-id="${id}"] .approve`);
  assert.equal(await exited, 0);
  assert.match(out, /"resolvedPaneIds"/);

  for (const negotiation of ['legacy', 'auto'] as const) {
    const mcp = await connectHttp(t, { url: server.url, token: server.token, negotiation });
    const marker = `over-http-${negotiation}`;
    const call = mcp.client.callTool({
      name: 'send_keys',
      arguments: { paneId: pane, keys: [`echo ${marker}`], literal: true, enter: true },
    });
    const asked = await question(page, marker, 5000);
    await page.click(`#questions li[data-id="${asked}"] .approve`);
    assert.equal((await call).isError, undefined);
    await until(`${marker} ran`, async () => new RegExp(`^${marker}$`, 'm').test(await tmux.tmux('capture-pane', '-p', '-t', pane)));
  }
});
