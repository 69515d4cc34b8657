/** The scope rule by itself: patterns, hosts, panes, the caller; and how tmux's arguments are read for it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSessionPatterns, Scope, ScopeError } from '../../src/core/targets/scope.js';
import { execFileSync } from 'node:child_process';
import { CommandTable } from '../../src/tmux/command-syntax.js';
import { atLeast, parseVersion } from '../../src/tmux/versions.js';
import { TMUX_BIN, testTmuxTmpdir } from '../fixture/tmux.js';
import { ConfigError } from '../../src/config.js';
import { parseCli } from '../../src/cli/options.js';

test('session patterns: exact names, prefixes ending in *, host prefixes; bad ones refused', () => {
  const patterns = parseSessionPatterns(['agent-*,build', 'gpu:train-*', 'local:mine']);
  assert.deepEqual(
    patterns.map((p) => [p.host, p.name, p.prefix]),
    [
      [undefined, 'agent-', true],
      [undefined, 'build', false],
      ['gpu', 'train-', true],
      ['local', 'mine', false],
    ],
  );
  const scope = new Scope({ patterns });
  assert.equal(scope.limitsSessions, true);
  assert.equal(scope.allowsSession(undefined, 'agent-1'), true);
  assert.equal(scope.allowsSession(undefined, 'agent-'), true);
  assert.equal(scope.allowsSession(undefined, 'agent'), false, 'a prefix is not the name without its dash');
  assert.equal(scope.allowsSession(undefined, 'build'), true);
  assert.equal(scope.allowsSession(undefined, 'build2'), false, 'an exact name is exact');
  assert.equal(scope.allowsSession('gpu', 'agent-3'), true, 'a pattern without a host applies on every host');
  assert.equal(scope.allowsSession('gpu', 'train-a'), true);
  assert.equal(scope.allowsSession(undefined, 'train-a'), false, 'a host pattern applies on that host only');
  assert.equal(scope.allowsSession('cpu', 'train-a'), false);
  assert.equal(scope.allowsSession(undefined, 'mine'), true, 'local: is this machine');
  assert.equal(scope.allowsSession('gpu', 'mine'), false);
  assert.equal(
    new Scope({ patterns: parseSessionPatterns(['*']) }).allowsSession(undefined, 'anything'),
    true,
    'a lone * allows every session',
  );
  for (const bad of ['', 'a,,b', 'a*b', 'bad host:x', 'x:y:z', 'has space', 'dot.ted', 'a:']) {
    assert.throws(() => parseSessionPatterns([bad]), ScopeError, bad);
  }
  assert.match(scope.describe(), /--allow-session agent-\*,build,gpu:train-\*,local:mine/);
});

test('windows and panes: in scope only when every session they are linked into is; the pane rule narrows panes', () => {
  const scope = new Scope({ patterns: parseSessionPatterns(['a*']) });
  assert.equal(scope.allowsWindow(undefined, ['a1', 'a2']), true);
  assert.equal(scope.allowsWindow(undefined, ['a1', 'other']), false, 'a window linked outside is out of scope');
  scope.setPaneRule((host, paneId, sessions) => host === undefined && (paneId === '%1' || sessions.includes('$9')));
  assert.equal(scope.active, true);
  assert.equal(scope.allowsPane(undefined, '%1', ['a1'], ['$0']), true);
  assert.equal(scope.allowsPane(undefined, '%2', ['a1'], ['$0']), false);
  assert.equal(scope.allowsPane(undefined, '%2', ['a1'], ['$9']), true, 'the rule sees the session ids');
  assert.equal(scope.allowsPane(undefined, '%1', ['b'], ['$0']), false, 'both rules hold at once');
  const open = new Scope();
  assert.equal(open.active, false);
  assert.equal(open.allowsSession('h', 'x'), true);
});

test('the caller: its pane on its own server only, never on a host', () => {
  const scope = new Scope({ caller: { paneId: '%0', serverPid: 42 } });
  assert.equal(scope.isCaller(undefined, '%0', 42), true);
  assert.equal(scope.isCaller(undefined, '%0', 43), false, 'another tmux server');
  assert.equal(scope.isCaller(undefined, '%1', 42), false);
  assert.equal(scope.isCaller('gpu', '%0', 42), false, 'the caller runs on this machine');
  assert.equal(new Scope({ caller: { paneId: '%0' } }).isCaller(undefined, '%0', 7), true, 'unsure which server: the safe side');
  assert.equal(scope.active, false, 'the caller alone narrows no listing');
});

/** The argument table of the tmux the suite runs, from its own list-commands (it needs no server). */
function runningTable(): CommandTable {
  const env = { ...process.env, TMUX_TMPDIR: testTmuxTmpdir() };
  const lines = execFileSync(TMUX_BIN, ['-L', 'table', 'list-commands', '-F', '#{command_list_name} #{command_list_usage}'], {
    encoding: 'utf8',
    env,
  })
    .trimEnd()
    .split('\n');
  return CommandTable.fromUsage(lines);
}

test("tmux's arguments as getopt reads them: values, clusters, --, and what -t and -s name", () => {
  const table = runningTable();
  const parseCommand = (argv: string[]) => table.parse(argv);
  const targetKind = (command: string, flag: string) => table.targetKind(command, flag);
  const send = parseCommand(['send-keys', '-l', '-t', '%3', '--', '-t', '%9']);
  assert.equal(send.values.get('t'), '%3');
  assert.deepEqual(send.positionals, ['-t', '%9'], 'text after -- is never read as a target');
  const swap = parseCommand(['swap-pane', '-dZ', '-s%1', '-t', '%2']);
  assert.deepEqual([...swap.switches], ['d', 'Z']);
  assert.equal(swap.values.get('s'), '%1');
  const display = parseCommand(['display-message', '-p', '-F', '-t', '-t', '%4']);
  assert.equal(display.values.get('F'), '-t', 'a value that looks like a flag is a value');
  assert.equal(display.values.get('t'), '%4');
  assert.equal(targetKind('new-session', 's'), undefined, 'new-session -s is a name, not a target');
  assert.equal(targetKind('move-window', 's'), 'window');
  assert.equal(targetKind('kill-session', 't'), 'session');
  assert.deepEqual(table.targetFlags('join-pane').sort(), ['s', 't']);
  assert.equal(parseCommand(['no-such-command']).known, false);
});

test('flags a later tmux added are read as that tmux reads them (3.5: send-keys -c, list-clients -f, source-file -t)', () => {
  const table = runningTable();
  const version = parseVersion(
    execFileSync(TMUX_BIN, ['-V'], { encoding: 'utf8' })
      .trim()
      .replace(/^tmux /, ''),
  );
  // With -c read as a switch, `%9` would be the first key and -t never seen.
  const send = table.parse(['send-keys', '-c', '%9', '-t', '%3', 'x']);
  const source = table.parse(['source-file', '-t', '%3', 'file']);
  if (atLeast(version, 3, 5)) {
    assert.equal(send.values.get('c'), '%9');
    assert.equal(send.values.get('t'), '%3');
    assert.equal(table.parse(['list-clients', '-f', '#{S:x}']).values.get('f'), '#{S:x}');
    assert.equal(table.targetKind('source-file', 't'), 'pane');
    assert.equal(source.values.get('t'), '%3');
  } else {
    assert.deepEqual(send.positionals, ['%9', '-t', '%3', 'x'], 'before 3.5 send-keys has no -c: tmux reads %9 as the first key');
    assert.equal(table.targetKind('source-file', 't'), undefined);
    assert.deepEqual(source.positionals, ['%3', 'file'], 'before 3.5 source-file has no -t value: %3 is a path');
  }
});

test('a usage line as list-commands prints it, run-together brackets included', () => {
  const table = CommandTable.fromUsage(['display-menu [-MO] [-b border-lines] [-t target-pane][-T title] name key command ...']);
  assert.equal(table.targetKind('display-menu', 't'), 'pane');
  assert.deepEqual(table.targetFlags('display-menu'), ['t']);
  assert.equal(table.parse(['display-menu', '-T', 'x', '-t', '%1']).values.get('t'), '%1');
});

test('--allow-session, TMUX_MCP_ALLOW_SESSIONS and --read-only in the configuration', () => {
  const config = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    const action = parseCli(argv, env);
    if (action.kind !== 'serve') throw new Error(`expected to serve, got ${action.kind}`);
    return action.config;
  };
  assert.deepEqual(
    config(['--allow-session', 'a*', '--allow-session=b,c']).allowSessions.map((p) => p.text),
    ['a*', 'b', 'c'],
  );
  assert.deepEqual(
    config([], { TMUX_MCP_ALLOW_SESSIONS: 'x*, y' }).allowSessions.map((p) => p.text),
    ['x*', 'y'],
  );
  assert.deepEqual(
    config(['--allow-session', 'z'], { TMUX_MCP_ALLOW_SESSIONS: 'x' }).allowSessions.map((p) => p.text),
    ['z'],
    'the flag wins',
  );
  assert.equal(config([]).allowSessions.length, 0);
  assert.equal(config(['--read-only']).readOnly, true);
  assert.equal(config([], { TMUX_MCP_READ_ONLY: '1' }).readOnly, true);
  assert.equal(config([], { TMUX_MCP_READ_ONLY: '0' }).readOnly, false);
  assert.throws(() => config([], { TMUX_MCP_READ_ONLY: 'yes' }), ConfigError);
  assert.throws(() => config(['--allow-session', 'gpu:x']), /host "gpu", which is not configured/);
  assert.deepEqual(
    config(['--host', 'gpu=me@gpu', '--allow-session', 'gpu:x']).allowSessions.map((p) => p.host),
    ['gpu'],
  );
  assert.throws(() => config(['--allow-session', 'a b']), /--allow-session/);
});
