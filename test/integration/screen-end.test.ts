/**
 * The end of an integrated shell's command read off the screen stands only where the shell's record of
 * its prompt is the row the cursor sits on: a record made before tmux had read the last of the
 * command's output (the hook's own tmux client can be served first) names a row above the prompt, and
 * rows read up to it would leave the output's tail out.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { integratedEndOnScreen } from '../../src/core/act/screen-end.js';
import { END_OPTION } from '../../src/core/act/shell-integration/index.js';
import { engineOn } from '../fixture/engine.js';
import { privateTmux } from '../fixture/tmux.js';
import { until } from '../fixture/until.js';

test('an end recorded above the prompt is not read off the screen; one recorded on the prompt row is, with the last line', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const engine = engineOn(t, tmux);
  await tmux.typeAndWait(pane, 'clear; seq 1 12');
  await until('the prompt after the output', async () => /^12\n\$ ?$/m.test((await tmux.tmux('capture-pane', '-p', '-t', pane)).trimEnd()));
  const [history, cursor] = (await tmux.tmux('display-message', '-p', '-t', pane, '#{history_size} #{cursor_y}'))
    .trim()
    .split(' ')
    .map(Number);
  const record = (row: number) => tmux.tmux('set-option', '-p', '-t', pane, END_OPTION, `abc123.7 4 ${history} ${row} d1`);
  const read = () => integratedEndOnScreen(engine, pane, 'abc123', (n, digest) => n === 7 && digest === 'd1', 50);

  // As a hook served before tmux read the last three rows would have recorded it.
  await record(cursor! - 3);
  assert.equal(await read(), undefined);

  await record(cursor!);
  const ending = await read();
  assert.equal(ending?.status, 4);
  assert.equal(ending?.lines.at(-1), '12');
});
