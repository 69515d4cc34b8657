/**
 * What tests run in: panes get a plain shell and a temporary HOME, never the
 * developer's login shell and rc files, and reaping a server that is already gone prints nothing.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PrivateTmux, privateTmux } from '../../fixture/tmux.js';
import { startMcp } from '../../fixture/mcp.js';
import { running } from '../../fixture/processes.js';
import { until } from '../../fixture/until.js';

test('panes a test or the MCP server starts run plain sh with a temporary HOME', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env });
  // A pane made through the server, with tmux's default shell: what an agent's create_session gets in tests.
  const made = await mcp.ok('create_session', { name: 'made' });
  const { panes } = await mcp.ok('list_panes', { session: made.id });
  for (const id of [pane, panes[0].id as string]) {
    const out = join(tmux.dir, `env-${id.slice(1)}`);
    await tmux.typeAndWait(id, `printf '%s\\n' "$HOME" "$0" "\${BASH_VERSION:-none}" > ${out}`);
    const [home, shell, bash] = readFileSync(out, 'utf8').split('\n');
    assert.notEqual(home, homedir(), 'not the developer HOME');
    assert.match(home!, /tmux-mcp-home-/);
    assert.equal(shell, 'sh');
    assert.equal(bash, 'none', 'not bash with its rc files');
    assert.equal((await tmux.tmux('display-message', '-p', '-t', id, '#{pane_current_command}')).trim(), 'sh');
  }
});

test('reaping a tmux server that is already gone prints nothing (no "error connecting to ...")', () => {
  const fixture = fileURLToPath(new URL('../../fixture/tmux.ts', import.meta.url));
  const script = `import { PrivateTmux } from ${JSON.stringify(fixture)}; new PrivateTmux().dispose();`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, '');
});

test('a tmux server stopped by a test that failed before resuming it is still reaped, and nothing else is', async () => {
  const tmux = new PrivateTmux();
  const bystander = new PrivateTmux();
  try {
    await tmux.start();
    await bystander.start();
    const pid = Number((await tmux.tmux('display-message', '-p', '#{pid}')).trim());
    process.kill(pid, 'SIGSTOP');
    // It cannot answer its own socket now; dispose finds it by the socket path in its command line.
    tmux.dispose();
    await until('the stopped server to be reaped', () => !running(pid), 10_000).catch(() => {});
    assert.equal(running(pid), false, 'the stopped server is still there');
    assert.equal((await bystander.tmux('display-message', '-p', '#{session_name}')).trim(), 'test', "another test's server is untouched");
  } finally {
    tmux.dispose();
    bystander.dispose();
  }
});
