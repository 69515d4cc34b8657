/**
 * A wait whose watch is lost while its pane lives on (this server's output-receiving control client
 * killed, alone or with the command client) must say the observation was lost, never that the pane
 * went away: libtmux answers outcome watchLost, python and julia fail with kind observation_lost.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startMcp, type McpSession } from '../../fixture/mcp.js';
import { startPython } from '../../fixture/python.js';
import { allToolArgs, startJulia } from '../../fixture/julia.js';
import { clientsAfterExit, privateTmux, type PrivateTmux } from '../../fixture/tmux.js';
import { until } from '../../fixture/until.js';

/** Our control clients: the watch receives output, the command client has no-output. */
async function controlClients(tmux: PrivateTmux): Promise<{ watch: number[]; command: number[] }> {
  const rows = (await tmux.tmux('list-clients', '-F', '#{client_pid} #{client_flags}'))
    .split('\n')
    .filter((row) => row.includes('control-mode'));
  const pid = (row: string) => Number(row.split(' ')[0]);
  return {
    watch: rows.filter((row) => !row.includes('no-output')).map(pid),
    command: rows.filter((row) => row.includes('no-output')).map(pid),
  };
}

/**
 * Starts `call`, kills the watch client under it once attached and `ready` holds (and the command
 * client too, with `all`), and answers the call's result.
 */
async function killWatchUnder<T>(
  tmux: PrivateTmux,
  call: () => Promise<T>,
  all: boolean,
  ready: () => boolean | Promise<boolean> = () => true,
): Promise<T> {
  const pending = call();
  const clients = await until(
    'the wait to attach its watch',
    async () => {
      const now = await controlClients(tmux);
      return now.watch.length > 0 && (!all || now.command.length > 0) && (await ready()) && now;
    },
    30_000,
  );
  // A watch killed while it attaches is replaced before the wait observes anything (nothing was lost):
  // the kill lands once the same watch has been attached for a moment.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const settled = await controlClients(tmux);
  assert.deepEqual(settled.watch, clients.watch, 'the watch stayed attached');
  for (const pid of [...clients.watch, ...(all ? clients.command : [])]) process.kill(pid, 'SIGKILL');
  return pending;
}

const text = (result: { content: Array<{ text?: string }> }) => result.content.map((c) => c.text ?? '').join('\n');

async function stillThere(mcp: McpSession, pane: string): Promise<void> {
  assert.ok(
    (await mcp.ok('list_panes')).panes.some((p: { id: string }) => p.id === pane),
    'the pane lives on',
  );
}

for (const all of [false, true]) {
  const which = all ? 'every control client' : 'the watch client';

  test(`libtmux: ${which} killed under wait_for_text and run_shell_command: watchLost, not "went away"`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start();
    const mcp = await startMcp(t, { env: tmux.env });
    const waited = await killWatchUnder(
      tmux,
      () => mcp.call('wait_for_text', { paneId: pane, patterns: ['never-printed'], timeoutMs: 60_000 }),
      all,
    );
    assert.equal((waited.structuredContent as { outcome: string }).outcome, 'watchLost', text(waited));
    assert.match(text(waited), /pane still exists/);
    assert.doesNotMatch(text(waited), /went away/);
    await stillThere(mcp, pane);

    // Killed once the command runs, so the keys were typed and only the watch can break.
    const sleeping = async () => (await tmux.tmux('display-message', '-p', '-t', pane, '#{pane_current_command}')).trim() === 'sleep';
    const ran = await killWatchUnder(
      tmux,
      () => mcp.call('run_shell_command', { paneId: pane, command: 'sleep 30', timeoutMs: 60_000 }),
      all,
      sleeping,
    );
    assert.equal(ran.isError, true, JSON.stringify(ran.structuredContent));
    assert.match(text(ran), /observation .*lost|no longer followed/i);
    assert.doesNotMatch(text(ran), /went away/);
    await mcp.close();
    assert.equal(await clientsAfterExit(tmux), '');
  });

  test(`python: ${which} killed under wait_for_text: observation_lost, not "went away"`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start();
    const mcp = await startPython(t, tmux.env);
    const waited = await killWatchUnder(
      tmux,
      () => mcp.call('wait_for_text', { pane_id: pane, patterns: ['never-printed'], timeout: 60 }),
      all,
    );
    assert.equal(waited.isError, true, JSON.stringify(waited));
    assert.equal((waited as { _meta?: { error_type?: string } })._meta?.error_type, 'ObservationLost', JSON.stringify(waited));
    assert.match(text(waited), /pane still exists/);
    assert.doesNotMatch(text(waited), /went away/);
    await mcp.close();
    assert.equal(await clientsAfterExit(tmux), '');
  });

  test(`julia: ${which} killed under wait_for_text: observation_lost that says the pane is still there`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start();
    const julia = await startJulia(t, tmux, { negotiation: 'legacy', args: allToolArgs() });
    const target = await julia.target(pane);
    // Killed once the wait reports "waiting" (its look at the screen done), so only the watch can break.
    let waiting = false;
    const onprogress = () => void (waiting = true);
    const error = await killWatchUnder(
      tmux,
      () => julia.error('wait_for_text', { target, text: 'never-printed' }, { onprogress } as never),
      all,
      () => waiting,
    );
    assert.equal(error.code, 'observation_lost');
    assert.match(error.message, /pane still exists/);
    await julia.mcp.close();
    assert.equal(await clientsAfterExit(tmux), '');
  });
}
