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
import { clientsAfterExit, privateTmux } from '../../fixture/tmux.js';
import { killWatchUnder } from '../../fixture/watch-clients.js';

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
