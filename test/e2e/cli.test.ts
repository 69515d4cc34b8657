import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { CLI } from '../fixture/mcp.js';
import { scrubbedEnv } from '../fixture/tmux.js';

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

test('a missing tmux binary does not stop the server from starting', () => {
  // With stdin closed at once, the server starts, prints its banner and exits cleanly.
  const result = run([], { LIBTMUX_TMUX_BIN: '/nonexistent/tmux', LIBTMUX_SOCKET_NAME: 'tmux-mcp-cli-test' });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stderr, /profile libtmux, socket -L tmux-mcp-cli-test/);
  assert.equal(result.stdout, '');
});

test('retired variables of older servers stop start-up instead of being ignored', () => {
  const safety = run([], { LIBTMUX_SAFETY: 'readonly' });
  assert.equal(safety.status, 2);
  assert.match(safety.stderr, /LIBTMUX_SAFETY is no longer read; use LIBTMUX_TOOLSETS/);
  const tools = run([], { LIBTMUX_MCP_TOOLS: 'list_panes' });
  assert.equal(tools.status, 2);
  assert.match(tools.stderr, /LIBTMUX_MCP_TOOLS is no longer read/);
});
