import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { CLI } from '../../fixture/mcp.js';
import { privateTmux, scrubbedEnv } from '../../fixture/tmux.js';
import { startRaw } from '../../fixture/raw-stdio.js';

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [CLI, ...args], { env: scrubbedEnv(env), encoding: 'utf8', input: '', timeout: 10_000 });
}

test('--version and --help answer on stdout and exit 0', () => {
  const version = run(['--version']);
  assert.equal(version.status, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  const help = run(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /--profile NAME/);
  assert.match(help.stdout, /LIBTMUX_SOCKET_PATH/);
  // One section per subject: every oversight flag under one heading.
  assert.equal(help.stdout.match(/^Oversight/gm)?.length, 1, 'one Oversight section');
  const oversight = help.stdout.slice(
    help.stdout.indexOf('\nOversight'),
    help.stdout.indexOf('\n\n', help.stdout.indexOf('\nOversight') + 1),
  );
  for (const flag of ['--allow-session', '--read-only', '--record DIR', '--record-max-mb', '--audit FILE', '--audit-redact', '--view'])
    assert.ok(oversight.includes(flag), flag);
});

test('both socket variables at once stop start-up with a message that says so', () => {
  const result = run([], { LIBTMUX_SOCKET_NAME: 'a', LIBTMUX_SOCKET_PATH: '/tmp/b' });
  assert.equal(result.status, 2);
  assert.equal(result.stdout, '', 'nothing on stdout: it belongs to the protocol');
  assert.match(result.stderr, /LIBTMUX_SOCKET_NAME and LIBTMUX_SOCKET_PATH are both set/);
});

test('an unknown profile or argument stops start-up clearly', () => {
  const profile = run(['--profile', 'perl']);
  assert.equal(profile.status, 2);
  assert.match(profile.stderr, /unknown profile "perl"; choose one of libtmux, python, julia/);
  const fromEnv = run([], { TMUX_MCP_PROFILE: 'nope' });
  assert.equal(fromEnv.status, 2);
  assert.match(fromEnv.stderr, /unknown profile "nope"/);
  const arg = run(['--frobnicate']);
  assert.equal(arg.status, 2);
  assert.match(arg.stderr, /unknown argument "--frobnicate"/);
});

test('a wrong LIBTMUX_TMUX_BIN stops start-up with a message naming it, before anything is served', () => {
  for (const [bin, said] of [
    ['/nonexistent/tmux', /ENOENT/],
    ['/bin/true', /did not answer "tmux <version>"/],
    ['/bin/echo', /it said: -V/],
  ] as const) {
    const result = run([], { LIBTMUX_TMUX_BIN: bin, LIBTMUX_SOCKET_NAME: 'tmux-mcp-cli-test' });
    assert.equal(result.status, 2, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, new RegExp(`^tmux-mcp: LIBTMUX_TMUX_BIN: cannot run tmux \\(${bin.replaceAll('/', '\\/')}\\)`));
    assert.match(result.stderr, said);
    assert.match(result.stderr, /set LIBTMUX_TMUX_BIN to its path/);
    assert.doesNotMatch(result.stderr, /profile libtmux/, 'no banner: the server never started');
  }
});

test('retired variables of older servers stop start-up instead of being ignored', () => {
  const safety = run([], { LIBTMUX_SAFETY: 'readonly' });
  assert.equal(safety.status, 2);
  assert.match(safety.stderr, /LIBTMUX_SAFETY is no longer read; use LIBTMUX_TOOLSETS/);
  const tools = run([], { LIBTMUX_MCP_TOOLS: 'list_panes' });
  assert.equal(tools.status, 2);
  assert.match(tools.stderr, /LIBTMUX_MCP_TOOLS is no longer read/);
});

test('an interrupt ends the server with 130; a SIGTERM and end of input with 0', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 0],
    [undefined, 0],
  ] as const) {
    const server = startRaw(t, tmux.env, ['--profile', 'julia', '--socket', tmux.socketPath]);
    await server.initialize();
    if (signal) server.child.kill(signal);
    else server.child.stdin.end();
    assert.equal(await server.exited, code, `${signal ?? 'end of input'} exit code`);
  }
});
