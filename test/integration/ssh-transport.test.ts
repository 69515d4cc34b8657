/**
 * The tmux layer over ssh, against a loopback sshd: the remote command line keeps every argument
 * whole, the control client and the spawn fallback both work through ssh, ssh's own failures name
 * the host and say what ssh said, a hanging ssh is bounded, a dropped connection fails what is in
 * flight and the next call reconnects, and nothing is left running on either side.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { remoteCommandLine, shellQuote } from '../../src/tmux/launcher.js';
import { TmuxServer } from '../../src/tmux/server.js';
import { TmuxConnectionLostError, TmuxHostError, TmuxLinkSilentError, TmuxTimeoutError } from '../../src/tmux/errors.js';
import { loopbackSshd, sshClients, type LoopbackSshd } from '../fixture/sshd.js';
import { settle } from '../fixture/until.js';
import { privateTmux, scrubbedEnv } from '../fixture/tmux.js';

const run = promisify(execFile);

/** Words a shell would split, expand, run or stop at, if it ever saw them unquoted. */
const NASTY = [
  'a b',
  "it's",
  '"dq"',
  '$(touch /tmp/tmux-mcp-pwned)',
  '`touch /tmp/tmux-mcp-pwned`',
  ';',
  'x; touch /tmp/tmux-mcp-pwned',
  'line1\nline2',
  '*',
  '~',
  '$HOME',
  '\\',
  '',
  '-n',
  '!!',
  '#not a comment',
  "''\\''",
  '|&<>',
  'tab\there',
  'ünïcødé',
];

function remote(sshd: LoopbackSshd, host = 'hosta', socketPath?: string, commandTimeoutMs = 10_000): TmuxServer {
  return new TmuxServer({
    bin: 'tmux',
    ssh: { host: host.replace(/^host/, ''), destination: host, sshConfig: sshd.config },
    socketPath,
    commandTimeoutMs,
    env: scrubbedEnv(),
  });
}

test('shellQuote: a POSIX shell reads every word back exactly', async () => {
  const { stdout } = await run('sh', ['-c', `printf '%s\\0' ${NASTY.map(shellQuote).join(' ')}`]);
  assert.deepEqual(stdout.split('\0').slice(0, -1), NASTY);
  assert.throws(() => shellQuote('a\0b'), /NUL/);
});

test('over ssh: the remote login shell passes every argument through whole', async (t) => {
  const sshd = await loopbackSshd(t);
  const { stdout } = await run('ssh', [
    '-T',
    '-o',
    'BatchMode=yes',
    '-F',
    sshd.config,
    'hosta',
    '--',
    remoteCommandLine(['printf', '%s\\0', ...NASTY]),
  ]);
  assert.deepEqual(stdout.split('\0').slice(0, -1), NASTY);
  assert.equal(existsSync('/tmp/tmux-mcp-pwned'), false, 'nothing was run by the remote shell');
});

test('a tmux server over ssh: spawn path, control client, session names that a shell would mangle, and a clean close', async (t) => {
  const sshd = await loopbackSshd(t);
  const tmux = privateTmux(t); // same machine: reaped by its socket like any private server
  const server = remote(sshd, 'hosta', tmux.socketPath);
  t.after(() => server.close());
  const name = "it's $(id); `x`";
  // No session yet: this goes over a spawned ssh.
  const [paneId] = await server.run(['new-session', '-d', '-P', '-F', '#{pane_id}', '-s', name, '-x', '80', '-y', '20', 'sh']);
  assert.match(paneId!, /^%\d+$/);
  assert.equal(await tmux.tmux('list-sessions', '-F', '#{session_name}'), `${name}\n`);
  // Now a control client attaches over ssh and carries commands.
  assert.deepEqual(await server.run(['display-message', '-p', '-t', paneId!, '#{pane_id}']), [paneId]);
  assert.notEqual(server.connectionEpoch, 0, 'commands go over a control client');
  const ours = [...server.ownClientPids()];
  assert.equal(ours.length, 1);
  const clients = (await tmux.tmux('list-clients', '-F', '#{client_pid}')).trim().split('\n').map(Number);
  assert.deepEqual(clients, ours, "the client pid is the remote tmux client's, not ssh's");
  // Text that tmux's parser and the remote shell would both mangle, stored and read back whole.
  // (save-buffer, not show-buffer: a control client sees `$` escaped in show-buffer's output.)
  const saved = join(tmux.dir, 'probe.txt');
  for (const text of NASTY.filter((word) => word !== '')) {
    await server.run(['set-buffer', '-b', 'probe', '--', text]);
    await server.run(['save-buffer', '-b', 'probe', saved]);
    assert.equal(readFileSync(saved, 'utf8'), text);
  }
  assert.ok(sshClients().length > 0);
  await server.close();
  assert.deepEqual(sshClients(), [], 'every ssh ended with close');
  await settle(() => sshd.sessions().length === 0);
  assert.deepEqual(sshd.sessions(), [], 'no ssh session (and so no remote tmux client) is left on the far side');
  assert.equal((await tmux.tmux('list-clients', '-F', '#{client_pid}')).trim(), '');
});

test("ssh's own failures name the host and carry ssh's words", async (t) => {
  const sshd = await loopbackSshd(t);
  const cases: Array<[string, RegExp]> = [
    ['badauth', /Permission denied/],
    ['unknownkey', /Host key verification failed|host key is known/i],
    ['down', /Connection refused/],
  ];
  for (const [destination, said] of cases) {
    const server = new TmuxServer({
      bin: 'tmux',
      ssh: { host: `h-${destination}`, destination, sshConfig: sshd.config },
      commandTimeoutMs: 10_000,
      env: scrubbedEnv(),
    });
    const error = await server.run(['list-sessions']).then(
      () => assert.fail('should fail'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof TmuxHostError, String(error));
    assert.match(error.message, new RegExp(`host h-${destination} \\(ssh ${destination}\\)`));
    assert.match(error.message, said);
    assert.doesNotMatch(error.message, /\r/);
    await server.close();
  }
});

test('an ssh that never answers is bounded by the command timeout and killed', async (t) => {
  const sshd = await loopbackSshd(t);
  const server = new TmuxServer({
    bin: 'tmux',
    ssh: { host: 'stuck', destination: 'hang', sshConfig: sshd.config },
    commandTimeoutMs: 1500,
    env: scrubbedEnv(),
  });
  t.after(() => server.close());
  const error = await server.run(['list-sessions']).then(
    () => assert.fail('should fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof TmuxTimeoutError || error instanceof TmuxHostError, String(error));
  assert.match((error as Error).message, /stuck|host stuck/);
  // The call answers at its deadline; the ssh it started ends by itself (ConnectTimeout, set from the same timeout).
  await settle(() => sshClients().length === 0, 15_000);
  assert.deepEqual(sshClients(), [], 'no ssh process is left behind');
});

test('a dropped connection fails the call in flight with a clear error; the next call after sshd is back reconnects', async (t) => {
  const sshd = await loopbackSshd(t);
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const server = remote(sshd, 'hosta', tmux.socketPath);
  t.after(() => server.close());
  await server.run(['list-sessions']);
  const epoch = server.connectionEpoch;
  assert.notEqual(epoch, 0);
  // A watch is in flight (it waits on its connection) when sshd and every session die.
  let onClose!: (reason: string) => void;
  const closed = new Promise<string>((resolve) => (onClose = resolve));
  await server.watchPane('$0', pane, { output: () => {}, close: (reason) => onClose(reason) });
  await sshd.stop();
  assert.match(await closed, /host a|closed|exited/);
  // A call racing the drop fails on the dying connection; either way the error names the host.
  await assert.rejects(server.run(['list-sessions']), (error: Error) => {
    assert.ok(error instanceof TmuxHostError || error instanceof TmuxConnectionLostError, String(error));
    assert.match(error.message, /cannot reach host a \(ssh hosta\)/);
    return true;
  });
  await assert.rejects(server.run(['list-sessions']), TmuxHostError, 'sshd is down: the host cannot be reached');
  await sshd.resume();
  assert.deepEqual(await server.run(['list-sessions', '-F', '#{session_name}']), ['test']);
  await server.run(['list-sessions']);
  assert.ok(server.connectionEpoch > epoch, 'a new control connection');
});

test('a link that goes silent (sshd sessions stopped, no FIN) fails what waits on it within the silence limit; the next call reconnects; no client is stranded', async (t) => {
  const sshd = await loopbackSshd(t);
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const server = new TmuxServer({
    bin: 'tmux',
    ssh: { host: 'a', destination: 'hosta', sshConfig: sshd.config, silenceMs: 2000 },
    socketPath: tmux.socketPath,
    commandTimeoutMs: 60_000,
    env: scrubbedEnv(),
  });
  t.after(() => server.close());
  await server.run(['list-sessions']);
  let onClose!: (reason: string) => void;
  const closed = new Promise<string>((resolve) => (onClose = resolve));
  await server.watchPane('$0', pane, { output: () => {}, close: (reason) => onClose(reason) });
  const clients = async () => (await tmux.tmux('list-clients', '-F', '#{client_pid}')).trim().split('\n').filter(Boolean);
  await settle(async () => (await clients()).length >= 2, 20_000);
  const frozen = sshd.freezeSessions(tmux.socketPath);
  assert.equal(frozen.length, 2);
  // The watch's heartbeat finds the silence, long before the 60 s command timeout; the idle command
  // connection shares the link and is dropped with it, so a command sent now does not wait on it.
  assert.match(await closed, /host a sent nothing for 2000 ms/);
  assert.ok(server.linkLost instanceof TmuxLinkSilentError);
  // Both were sent SIGKILL before the watch heard of its close; dying takes the kernel a moment more.
  // The assertion below names any still running.
  await settle(() => sshClients().length === 0, 1000);
  assert.deepEqual(sshClients(), [], "the silent connections' ssh processes were ended");
  assert.deepEqual(await server.run(['display-message', '-p', '-t', pane, '#{pane_id}']), [pane], 'the next call reconnects');
  assert.equal(server.linkLost, undefined);
  // The stranded remote tmux clients are ended by the new connection; then the frozen sessions may wake.
  const ours = [...server.ownClientPids()];
  await settle(async () => (await clients()).every((pid) => ours.includes(Number(pid))), 20_000);
  assert.deepEqual((await clients()).map(Number), ours, "only the new connection's client is left");
  sshd.thaw(frozen);
  await server.close();
  await settle(() => sshd.sessions().length === 0);
  assert.deepEqual(sshd.sessions(), []);
  assert.deepEqual(await clients(), []);
});

test('the tmux on a host is checked on connect: an old one is a clear error naming the host, and nothing is left running', async (t) => {
  const sshd = await loopbackSshd(t);
  const tmux = privateTmux(t);
  await tmux.start();
  // A tmux that says it is 3.2a and would otherwise work: only the version check can refuse it.
  const fake = join(tmux.dir, 'old-tmux');
  writeFileSync(fake, `#!/bin/sh\nif [ "$1" = -V ]; then echo 'tmux 3.2a'; exit 0; fi\nexec tmux "$@"\n`, { mode: 0o755 });
  const server = new TmuxServer({
    bin: 'tmux',
    ssh: { host: 'old', destination: 'hosta', sshConfig: sshd.config, remoteTmux: fake },
    socketPath: tmux.socketPath,
    commandTimeoutMs: 10_000,
    env: scrubbedEnv(),
  });
  t.after(() => server.close());
  for (let i = 0; i < 2; i++) {
    const error = await server.run(['list-sessions']).then(
      () => assert.fail('an old tmux must be refused'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof TmuxHostError, String(error));
    assert.match(error.message, /tmux on host old \(ssh hosta\) cannot be used: it is tmux 3\.2a; tmux 3\.3a or newer is needed/);
  }
  await server.close();
  await settle(() => sshd.sessions().length === 0 && sshClients().length === 0);
  assert.deepEqual([sshd.sessions(), sshClients()], [[], []]);
  assert.equal((await tmux.tmux('list-clients', '-F', '#{client_pid}')).trim(), '', 'the attach that ran beside the check was ended');
});
