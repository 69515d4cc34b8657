/**
 * `--view` over stdio is up as soon as the server starts: the banner with the view's address is
 * written and the page is served before any MCP message arrives. A view port that is taken stops
 * start-up as a taken `--http` port does: one line, exit status 1, nothing on stdout. A start that
 * fails leaves no audit file of its own making behind.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI } from '../../fixture/mcp.js';
import { privateTmux, scrubbedEnv } from '../../fixture/tmux.js';
import { until } from '../../fixture/until.js';

const TOKEN = 'view-launch-token-0123456789';

function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('--view over stdio: banner and page before any MCP message', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'early' });
  // stdin stays open and silent: no client has said anything yet.
  const server = spawn(process.execPath, [CLI, '--view', '127.0.0.1:0'], {
    env: scrubbedEnv({ ...tmux.env, TMUX_MCP_TOKEN: TOKEN }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  server.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => server.on('close', resolve));
  t.after(() => void server.kill('SIGKILL'));

  const url = await until('the banner with the view', () => /, view at (http:\/\/127\.0\.0\.1:\d+\/)\n/.exec(stderr)?.[1], 20_000);
  assert.equal(stderr.split('\n').filter(Boolean).length, 1, `one banner line: ${stderr}`);
  const traded = await get(`${url}?token=${TOKEN}`);
  assert.equal(traded.status, 303);
  const cookie = String((traded.headers['set-cookie'] as string[])[0]).split(';')[0]!;
  const page = await get(url, { cookie });
  assert.equal(page.status, 200);
  assert.match(page.body, /<html/i);
  assert.equal(stdout, '', 'no MCP traffic: stdout carries only answers');
  server.stdin.end();
  assert.equal(await exited, 0, 'end of input ends it as usual');
});

test('--view on a taken port: one line, exit 1, before any MCP message; a failed start leaves no audit file', async (t) => {
  const tmux = privateTmux(t);
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.after(() => void taken.close());
  const port = (taken.address() as AddressInfo).port;
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-launch-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = scrubbedEnv({ ...tmux.env, TMUX_MCP_TOKEN: TOKEN });
  const start = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { env, input: '', encoding: 'utf8', timeout: 30_000 });

  const view = start(['--view', `127.0.0.1:${port}`, '--audit', join(dir, 'view.jsonl')]);
  assert.equal(view.status, 1, view.stderr);
  assert.equal(view.stdout, '');
  assert.equal(
    view.stderr,
    `tmux-mcp: --view: cannot listen on 127.0.0.1:${port}: the address is already in use (another server listens there; choose another port)\n`,
  );
  const http = start(['--http', `127.0.0.1:${port}`, '--audit', join(dir, 'http.jsonl')]);
  assert.equal(http.status, 1);
  assert.equal(
    http.stderr,
    `tmux-mcp: cannot listen on 127.0.0.1:${port}: the address is already in use (another server listens there; choose another port)\n`,
  );
  // The README's recording example without its folder: one line, and no empty audit file left.
  const record = start(['--record', join(dir, 'no-such-folder'), '--audit', join(dir, 'record.jsonl')]);
  assert.equal(record.status, 1);
  assert.equal(record.stderr, `tmux-mcp: --record ${join(dir, 'no-such-folder')}: no such directory\n`);
  assert.deepEqual(readdirSync(dir), [], 'no audit file of a failed start is left behind');
  // A file that was there before stays, even empty.
  writeFileSync(join(dir, 'kept.jsonl'), '', { mode: 0o600 });
  const kept = start(['--record', join(dir, 'no-such-folder'), '--audit', join(dir, 'kept.jsonl')]);
  assert.equal(kept.status, 1);
  assert.match(kept.stderr, /--record .*no such directory/);
  assert.deepEqual(readdirSync(dir), ['kept.jsonl']);
});
