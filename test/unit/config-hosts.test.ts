/** Hosts from `--host` and TMUX_MCP_HOSTS: the forms accepted, and each mistake refused with a message before start-up. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../src/config.js';
import { parseCli } from '../../src/cli/options.js';
import { routeTarget } from '../../src/core/servers/hosts.js';

function hosts(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const action = parseCli(argv, env);
  assert.equal(action.kind, 'serve');
  return action.kind === 'serve' ? action.config.hosts : [];
}

test('--host and TMUX_MCP_HOSTS: destination, socket name or path, ssh settings', () => {
  assert.deepEqual(hosts([]), []);
  assert.deepEqual(
    hosts(['--host', 'gpu=me@gpu.example', '--host=build=ssh://ci@10.0.0.2:2222#work'], {
      TMUX_MCP_HOSTS: 'stage=stage-alias#/run/tmux/s.sock, other=o',
      TMUX_MCP_SSH_CONFIG: '/etc/mcp/ssh_config',
      LIBTMUX_SOCKET_NAME: 'mine',
    }),
    [
      { name: 'stage', destination: 'stage-alias', socketPath: '/run/tmux/s.sock', sshConfig: '/etc/mcp/ssh_config' },
      { name: 'other', destination: 'o', socketName: 'mine', sshConfig: '/etc/mcp/ssh_config' },
      { name: 'gpu', destination: 'me@gpu.example', socketName: 'mine', sshConfig: '/etc/mcp/ssh_config' },
      { name: 'build', destination: 'ssh://ci@10.0.0.2:2222', socketName: 'work', sshConfig: '/etc/mcp/ssh_config' },
    ],
  );
  // A local socket path is this machine's: a host keeps the default socket name.
  assert.deepEqual(hosts(['--host', 'x=y'], { LIBTMUX_SOCKET_PATH: '/tmp/s' }), [
    { name: 'x', destination: 'y', socketName: 'libtmux-mcp' },
  ]);
  assert.deepEqual(hosts(['--host', 'x=y'], { TMUX_MCP_SSH_BIN: '/opt/ssh', TMUX_MCP_REMOTE_TMUX: '/opt/homebrew/bin/tmux' }), [
    { name: 'x', destination: 'y', socketName: 'libtmux-mcp', sshBin: '/opt/ssh', remoteTmux: '/opt/homebrew/bin/tmux' },
  ]);
  // The silence limit, in seconds: unset leaves the launcher's default.
  assert.deepEqual(hosts(['--host', 'x=y'], { TMUX_MCP_HOST_SILENCE_SECONDS: '2.5' }), [
    { name: 'x', destination: 'y', socketName: 'libtmux-mcp', silenceMs: 2500 },
  ]);
  for (const value of ['0', '0.05', '61', 'soon']) {
    assert.throws(
      () => parseCli(['--host', 'x=y'], { TMUX_MCP_HOST_SILENCE_SECONDS: value }),
      /TMUX_MCP_HOST_SILENCE_SECONDS must be a number of seconds from 0.1 to 60/,
      value,
    );
  }
});

test('bad hosts stop start-up with a message', () => {
  const bad: Array<[string[], RegExp]> = [
    [['--host'], /needs a value/],
    [['--host', 'noequals'], /NAME=SSH-DESTINATION/],
    [['--host', '=dest'], /NAME=SSH-DESTINATION/],
    [['--host', '1x=dest'], /starting with a letter/],
    [['--host', 'a:b=dest'], /NAME=SSH-DESTINATION/],
    [['--host', 'local=dest'], /"local" names this machine/],
    [['--host', 'a='], /not an ssh destination/],
    [['--host', 'a=-oProxyCommand=evil'], /not an ssh destination/],
    [['--host', 'a=b c'], /not an ssh destination/],
    [['--host', 'a=x', '--host', 'a=y'], /configured twice/],
    [['--host', 'a=x#../up'], /socket name or an absolute socket path/],
    [['--host', 'a=x#'], /socket name or an absolute socket path/],
  ];
  for (const [argv, message] of bad)
    assert.throws(
      () => parseCli(argv, {}),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
      argv.join(' '),
    );
});

test('routeTarget: a configured NAME: prefix picks the host; anything else stays local and whole', () => {
  const names = new Set(['gpu']);
  assert.deepEqual(routeTarget('gpu:%3', names), { host: 'gpu', target: '%3' });
  assert.deepEqual(routeTarget('gpu:work', names), { host: 'gpu', target: 'work' });
  assert.deepEqual(routeTarget('local:%3', names), { host: undefined, target: '%3' });
  assert.deepEqual(routeTarget('%3', names), { host: undefined, target: '%3' });
  assert.deepEqual(routeTarget('other:%3', names), { host: undefined, target: 'other:%3' });
  assert.deepEqual(routeTarget('$1:0', names), { host: undefined, target: '$1:0' });
});
