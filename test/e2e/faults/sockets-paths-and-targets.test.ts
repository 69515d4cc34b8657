/**
 * Defects a second reliability run found, each held here through the built
 * server against real tmux (and a real HTTP listener, a loopback sshd where hosts are concerned):
 * socket paths tmux would destroy, pipe_pane's unwritable paths, targets that disagree, raw control
 * characters in echoes, odd socket names, concurrent calls on a stopped tmux, start-up input, and
 * words that misled. End of input mid-wait is in faults/stdin-end.test.ts, slow HTTP clients in
 * http/slow-clients.test.ts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, startMcp } from '../../fixture/mcp.js';
import { startPython } from '../../fixture/python.js';
import { startJulia } from '../../fixture/julia.js';
import { loopbackSshd } from '../../fixture/sshd.js';
import { privateTmux, scrubbedEnv, socketTmpdir, stopTmuxServer } from '../../fixture/tmux.js';
import { until } from '../../fixture/until.js';

const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** Runs the built CLI to its end (stdin closed at once) and answers its exit code and stderr. */
function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdin.end();
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stderr });
    });
  });
}

/** A temp dir with a file holding `content`, for checks that it is left as it was. */
function sentinel(
  t: { after: (fn: () => void) => void },
  name = 'precious.txt',
  content = 'my data\n',
): { dir: string; path: string; intact(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-sentinel-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, name);
  writeFileSync(path, content, { mode: 0o640 });
  return {
    dir,
    path,
    intact() {
      const stats = statSync(path);
      assert.ok(stats.isFile(), `${path} is still an ordinary file`);
      assert.equal(readFileSync(path, 'utf8'), content, `${path} keeps its content`);
      assert.equal(stats.mode & 0o777, 0o640, `${path} keeps its mode`);
    },
  };
}

test('1. a socket path that is an ordinary file is refused at start-up (--socket, LIBTMUX_SOCKET_PATH, every profile), naming it; the file is kept', async (t) => {
  const file = sentinel(t);
  const env = scrubbedEnv();
  for (const profile of ['libtmux', 'python', 'julia']) {
    for (const [args, extra] of [
      [['--socket', file.path], {}],
      [[], { LIBTMUX_SOCKET_PATH: file.path }],
    ] as const) {
      const { code, stderr } = await runCli(['--profile', profile, ...args], { ...env, ...extra });
      assert.equal(code, 2, `${profile} ${JSON.stringify(args)}: ${stderr}`);
      assert.match(stderr, /is an ordinary file; no tmux was run on it/);
      assert.ok(stderr.includes(file.path), stderr);
      file.intact();
    }
  }
});

test("1. a socket path that becomes an ordinary file after start-up, or whose lock file is someone else's, is refused before any tmux runs", async (t) => {
  const file = sentinel(t);
  const socket = join(file.dir, 'later.sock');
  const mcp = await startMcp(t, { env: scrubbedEnv({ LIBTMUX_SOCKET_PATH: socket }) });
  assert.deepEqual((await mcp.ok('list_sessions')).sessions, []);
  writeFileSync(socket, 'written after start-up\n');
  for (const [tool, args] of [
    ['list_sessions', {}],
    ['create_session', { name: 'x' }],
  ] as const) {
    const text = await mcp.fails(tool, args);
    assert.match(text, /is an ordinary file; no tmux was run on it/, text);
    assert.ok(text.includes(socket));
  }
  assert.equal(readFileSync(socket, 'utf8'), 'written after start-up\n');
  rmSync(socket);
  // tmux unlinks PATH.lock after starting a server there: a file of that name with content is not its lock.
  writeFileSync(`${socket}.lock`, 'not a lock\n');
  assert.match(await mcp.fails('create_session', { name: 'x' }), /that is not tmux's lock/);
  assert.equal(readFileSync(`${socket}.lock`, 'utf8'), 'not a lock\n');
  assert.ok(!existsSync(socket), 'no server was started');
});

test('1. python socket_name: a name whose socket is an ordinary file, or whose socket directory is not private, is refused', async (t) => {
  const sockets = socketTmpdir(t);
  const env = scrubbedEnv({ TMUX_TMPDIR: sockets.tmpdir });
  const victim = join(sockets.socketDir, 'victim');
  writeFileSync(victim, 'my data\n', { mode: 0o640 });
  const mcp = await startPython(t, env);
  for (const [tool, args] of [
    ['list_sessions', { socket_name: 'victim' }],
    ['create_session', { session_name: 'x', socket_name: 'victim' }],
  ] as const) {
    const text = await mcp.fails(tool, args);
    assert.match(text, /is an ordinary file; no tmux was run on it/, text);
  }
  assert.equal(readFileSync(victim, 'utf8'), 'my data\n');
  chmodSync(sockets.socketDir, 0o777);
  try {
    assert.match(await mcp.fails('create_session', { session_name: 'x', socket_name: 'fresh' }), /not a private directory of this user/);
    assert.ok(!existsSync(join(sockets.socketDir, 'fresh')));
  } finally {
    chmodSync(sockets.socketDir, 0o700);
  }
});

test('4. python pipe_pane refuses an output path that cannot be created and written, and pipes to one that can', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startPython(t, tmux.env);
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-pipe-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [path, why] of [
    ['/nonexistent/dir/out.log', /does not exist/],
    ['/proc/version', /kernel file/],
    [dir, /is a directory/],
    ['/dev/null', /not an ordinary file/],
  ] as const) {
    const text = await mcp.fails('pipe_pane', { pane_id: pane, output_path: path });
    assert.match(text, why, `${path}: ${text}`);
    assert.equal((await tmux.tmux('display-message', '-p', '-t', pane, '#{pane_pipe}')).trim(), '0', 'tmux was not told to pipe');
  }
  const out = join(dir, 'out.log');
  await mcp.text('pipe_pane', { pane_id: pane, output_path: out });
  await tmux.typeAndWait(pane, 'echo piped-$((6*7))');
  await until('the pane output to reach the file', () => existsSync(out) && readFileSync(out, 'utf8').includes('piped-42'), 10_000);
});

test('5. libtmux list_panes checks every target given: a garbled session, or a window of another session, is an error', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'main' });
  await tmux.newSession('other');
  const window = (await tmux.tmux('display-message', '-p', '-t', pane, '#{window_id}')).trim();
  const mcp = await startMcp(t, { env: tmux.env });
  assert.match(await mcp.fails('list_panes', { session: 'garbage;junk', window }), /no session named "garbage;junk"/);
  assert.match(await mcp.fails('list_panes', { session: 'other', window }), new RegExp(`window ${window} is not in session`));
  assert.deepEqual(
    (await mcp.ok('list_panes', { session: 'main', window })).panes.map((p: { id: string }) => p.id),
    [pane],
  );
});

test('6. python call_read_tools_batch shows caller input escaped, never raw control characters', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const mcp = await startPython(t, tmux.env);
  const hostile = '\u001b]2;t\u0007\u001b[2J';
  for (const operations of [[{ tool: hostile }], [{ tool: 'list_sessions' }, { tool: `x${hostile}`.repeat(50) }]]) {
    const result = await mcp.call('call_read_tools_batch', { operations, on_error: 'continue' });
    const text = result.content.map((c) => c.text ?? '').join('\n');
    assert.doesNotMatch(text, RAW_CONTROL, JSON.stringify(text));
    assert.ok(text.includes('\\u001b]2;t\\u0007'), text);
  }
});

test('7. python socket_name: only names tmux sensibly takes (and HOST:), refused before any tmux runs', async (t) => {
  const sockets = socketTmpdir(t);
  const mcp = await startPython(t, scrubbedEnv({ TMUX_TMPDIR: sockets.tmpdir }));
  for (const name of ['a\nb', '\u001b]2;x\u0007', '-L', '-', 'a b', 'x'.repeat(65), '.', '..', 'a/b', 'é']) {
    const text = await mcp.fails('create_session', { session_name: 's', socket_name: name });
    assert.match(text, /socket_name/, `${JSON.stringify(name)}: ${text}`);
    assert.doesNotMatch(text, RAW_CONTROL);
  }
  assert.match(await mcp.fails('list_sessions', { socket_name: 'nohost:' }), /host "nohost", which is not configured/);
  const { readdirSync } = await import('node:fs');
  assert.deepEqual(readdirSync(sockets.socketDir), [], 'no tmux server was started');
  // Sensible names work.
  // Registered before it starts, so the fixture's own clean-up (which runs first) kills it.
  sockets.server('ok.name_1-2');
  await mcp.ok('create_session', { session_name: 's', socket_name: 'ok.name_1-2' });
  assert.deepEqual(readdirSync(sockets.socketDir), ['ok.name_1-2']);
});

test('9. while tmux is stopped, each of 8 concurrent calls fails within its own command timeout (4 s): a client that gives up before two gets every answer', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const mcp = await startMcp(t, { env: { ...tmux.env, LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS: '4' } });
  await mcp.ok('list_sessions');
  const resume = await stopTmuxServer(t, tmux);
  // Before the fix every call but the first took two timeouts (8 s): the SDK client's own request timeout,
  // just under that, would then have thrown instead of handing back the answer. (list_windows: list_sessions
  // may answer a kept list for a moment after tmux stops, docs/hosts.md.)
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      const answer = await mcp.call('list_windows', {}, { timeout: 7900 });
      assert.equal(answer.isError, true);
      // What is left of the call's 4 s deadline when the command goes out: a few ms less under load.
      assert.match(answer.content.map((c) => c.text ?? '').join('\n'), /did not answer within (3\d\d\d|4000) ms/);
    }),
  );
  resume();
});

test('10. start-up: a port in use is one line naming the address and exit 1; a short chosen token is refused beyond loopback', async (t) => {
  const taken: NetServer = createNetServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.after(() => taken.close());
  const port = (taken.address() as { port: number }).port;
  const busy = await runCli(['--http', `127.0.0.1:${port}`], scrubbedEnv());
  assert.equal(busy.code, 1, busy.stderr);
  const lines = busy.stderr
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('tmux-mcp 0') && !/bearer token/.test(line));
  assert.deepEqual(lines.length, 1, busy.stderr);
  assert.match(lines[0]!, new RegExp(`^tmux-mcp: cannot listen on 127\\.0\\.0\\.1:${port}: the address is already in use`));

  const short = await runCli(['--http', '0.0.0.0:0'], scrubbedEnv({ TMUX_MCP_TOKEN: 'abc' }));
  assert.equal(short.code, 2);
  assert.match(short.stderr, /at least 16 characters/);
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-token-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'token'), 'abc\n');
  const shortFile = await runCli(['--http', '0.0.0.0:0', '--token-file', join(dir, 'token')], scrubbedEnv());
  assert.equal(shortFile.code, 2);
  assert.match(shortFile.stderr, /at least 16 characters/);
});

test('11. julia: a read-only call that runs out of time says nothing of remote effects (effects "none")', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const julia = await startJulia(t, tmux, { negotiation: 'legacy', args: ['--timeout', '1'] });
  const target = await julia.target(pane);
  await stopTmuxServer(t, tmux);
  const error = await julia.error('capture_pane', { target });
  assert.equal(error.effects, 'none');
  assert.doesNotMatch(error.message, /remote effects/, error.message);
});

test('11. hosts: ssh://-o… is refused at start-up, and the ssh hint quotes the destination for a shell', async (t) => {
  for (const destination of ['ssh://-oProxyCommand=touch%20x', 'user@-oProxyCommand=x', 'ssh://me@-p1']) {
    const { code, stderr } = await runCli(['--host', `a=${destination}`], scrubbedEnv());
    assert.equal(code, 2, stderr);
    assert.match(stderr, /is not an ssh destination/);
    assert.doesNotMatch(stderr, /usage: ssh/);
  }
  const sshd = await loopbackSshd(t);
  const tmux = privateTmux(t);
  await tmux.start();
  const mcp = await startMcp(t, { env: { ...tmux.env, TMUX_MCP_SSH_CONFIG: sshd.config }, args: ['--host', 'bad=no$body@hosta'] });
  const text = await mcp.fails('list_panes', { session: 'bad:main' });
  assert.ok(text.includes("ssh -o BatchMode=yes 'no$body@hosta' tmux -V"), text);
});

test("11. a socket that is not a tmux server's says so, not that ids change", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-nottmux-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'other.sock');
  const other = createNetServer((socket) => socket.end());
  await new Promise<void>((resolve) => other.listen(path, resolve));
  t.after(() => other.close());
  // tmux's client says "server exited unexpectedly" here, as for a server on its way out: retried to the deadline (2 s).
  const mcp = await startMcp(t, { env: scrubbedEnv({ LIBTMUX_SOCKET_PATH: path, LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS: '2' }) });
  const text = await mcp.fails('list_sessions');
  assert.match(text, /does not answer as a tmux server/, text);
  assert.doesNotMatch(text, /ids change/);
});
