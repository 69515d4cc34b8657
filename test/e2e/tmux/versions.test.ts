/**
 * Every tmux people run: a host on another tmux version than this machine's answers beside it (each
 * engine reads its own tmux: rows, the argument table of the scope gate), names and titles with
 * bytes tmux 3.4+ prints escaped read back exact, a tmux newer than any tested is run and said to
 * be newer, and one older than the oldest tested is refused at start-up with one line.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error: plain JavaScript, no declarations
import { otherTmux } from '../../../scripts/preflight.mjs';
import { CLI, startMcp } from '../../fixture/mcp.js';
import { loopbackSshd, sshClients } from '../../fixture/sshd.js';
import { privateTmux, scrubbedEnv, TMUX_BIN } from '../../fixture/tmux.js';
import { settle, until } from '../../fixture/until.js';

const OTHER = otherTmux() as string | undefined;
const versionOf = (bin: string) => execFileSync(bin, ['-V'], { encoding: 'utf8' }).trim();

test('a host on another tmux version than this machine: both list, create, type, capture and stay in scope', async (t) => {
  assert.ok(OTHER, 'preflight found a tmux of another version (scripts/build-tmux.sh)');
  assert.notEqual(versionOf(OTHER), versionOf(TMUX_BIN));
  const sshd = await loopbackSshd(t);
  const local = privateTmux(t);
  const far = privateTmux(t, { bin: OTHER });
  await Promise.all([local.start({ session: 'agent-here' }), far.start({ session: 'agent-far' })]);
  await far.tmux('new-session', '-d', '-s', 'personal');
  const mcp = await startMcp(t, {
    env: {
      ...local.env,
      TMUX_MCP_SSH_CONFIG: sshd.config,
      TMUX_MCP_REMOTE_TMUX: OTHER,
      LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown',
    },
    args: ['--host', `far=hosta#${far.socketPath}`, '--allow-session', 'agent-*,far:agent-*'],
  });

  const { sessions } = await mcp.ok('list_sessions');
  assert.deepEqual(
    sessions.map((s: { id: string; name: string }) => [s.id, s.name]),
    [
      ['$0', 'agent-here'],
      ['far:$0', 'agent-far'],
    ],
    "the person's session on the host stays out of sight",
  );

  // A directory with a tab, a backslash before digits and a control character: tmux 3.4+ prints the
  // path escaped, and it reads back as it is on the disk, from either version.
  const odd = join(mkdtempSync(join(tmpdir(), 'tmux-mcp-odd-')), 'odd\tdir\\033\u0001x');
  mkdirSync(odd);
  t.after(() => rmSync(join(odd, '..'), { recursive: true, force: true }));
  for (const [server, pane] of [
    [local, '%0'],
    [far, 'far:%0'],
  ] as const) {
    await server.tmux('send-keys', '-t', '%0', '-l', `cd '${odd}'`);
    await server.tmux('send-keys', '-t', '%0', 'Enter');
    await until(
      `${pane} in the odd directory`,
      async () => (await mcp.ok('get_pane_info', { paneId: pane })).pane.currentPath === odd,
      10_000,
    );
  }
  for (const pane of ['%0', 'far:%0']) {
    const mark = await mcp.ok('capture_since', { paneId: pane });
    await mcp.ok('send_keys', { paneId: pane, keys: [`echo "ver-$(printf 'a\\tb')-${pane.length}"`], enter: true });
    await mcp.ok('wait_for_text', { paneId: pane, patterns: [`ver-a\\s+b-${pane.length}`], cursor: mark.cursor, timeoutMs: 15_000 });
    const { lines } = await mcp.ok('capture_pane', { paneId: pane });
    assert.ok(
      lines.some((line: string) => new RegExp(`^ver-a\\s+b-${pane.length}$`).test(line)),
      lines.join('\n'),
    );
  }
  // The gate reads the host's own argument table: a target outside the scope is refused there too.
  const refused = await mcp.call('kill_session', { session: 'far:personal' });
  assert.equal(refused.isError, true);
  assert.match(JSON.stringify(refused.content), /outside|scope/);
  assert.match(await far.tmux('list-sessions', '-F', '#{session_name}'), /^personal$/m);

  await mcp.close();
  await settle(() => sshd.sessions().length === 0 && sshClients().length === 0, 15_000);
  assert.deepEqual([sshd.sessions(), sshClients()], [[], []], 'nothing left on either side');
});

/** A tmux that says it is `version` and is the suite's tmux for everything else. */
function tmuxSaying(t: { after: (fn: () => void) => void }, version: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-version-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bin = join(dir, 'tmux');
  const real = execFileSync('sh', ['-c', `command -v ${TMUX_BIN}`], { encoding: 'utf8' }).trim();
  writeFileSync(bin, `#!/bin/sh\nif [ "$1" = -V ]; then echo 'tmux ${version}'; exit 0; fi\nexec ${real} "$@"\n`, { mode: 0o755 });
  return bin;
}

test('a tmux newer than the newest tested runs, and the banner names it as newer; an older one is refused in one line', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const newer = tmuxSaying(t, '3.9');
  const mcp = await startMcp(t, { env: { ...tmux.env, LIBTMUX_TMUX_BIN: newer } });
  const { sessions } = await mcp.ok('list_sessions');
  assert.equal(sessions.length, 1, 'it serves');
  await settle(() => /tmux 3\.9/.test(mcp.stderr()), 5_000);
  assert.match(mcp.stderr(), /tmux 3\.9 \(newer than the newest tested, 3\.5a\)/);
  await mcp.close();

  const old = spawnSync(process.execPath, [CLI], {
    env: scrubbedEnv({ LIBTMUX_SOCKET_PATH: tmux.socketPath, LIBTMUX_TMUX_BIN: tmuxSaying(t, '3.2a') }),
    input: '',
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.equal(old.status, 2, 'as for a missing tmux');
  assert.match(
    old.stderr,
    /^tmux-mcp: LIBTMUX_TMUX_BIN: \S+: it is tmux 3\.2a; tmux 3\.3a or newer is needed\. Install tmux 3\.3a or newer .*\n$/,
  );
});
