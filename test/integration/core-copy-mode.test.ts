/** Copy mode: entered (scrolled back into history), left, and bad input refused before tmux. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { enterCopyMode, exitCopyMode } from '../../src/core/act/copy-mode.js';
import { Failure } from '../../src/core/failure.js';
import { sendKeys } from '../../src/core/act/input.js';
import { engineOn } from '../fixture/engine.js';
import { privateTmux } from '../fixture/tmux.js';

test('a bad scroll_up is refused before any tmux runs', async (t) => {
  const tmux = privateTmux(t);
  const engine = engineOn(t, tmux, { bin: '/nonexistent/tmux-never-run' });
  for (const scrollUp of [-1, 1.5, Number.NaN, 2_000_000]) {
    await assert.rejects(
      enterCopyMode(engine, '%0', { scrollUp }),
      (error: unknown) => error instanceof Failure && error.kind === 'invalid_argument' && !error.touched,
      String(scrollUp),
    );
  }
});

test('enter scrolls back into history, input is refused meanwhile, exit returns to the program', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ height: 20 });
  const engine = engineOn(t, tmux);
  await tmux.typeAndWait(pane, 'seq 1 200');
  const scroll = async () => (await tmux.tmux('display-message', '-p', '-t', pane, '#{pane_in_mode} #{scroll_position}')).trim();

  const entered = await enterCopyMode(engine, pane, { scrollUp: 50 });
  assert.equal(entered.id, pane);
  assert.equal(entered.modeCount, 1);
  assert.equal(await scroll(), '1 50');
  // Entering again keeps the mode; a further scroll adds to it.
  await enterCopyMode(engine, pane, { scrollUp: 10 });
  assert.equal(await scroll(), '1 60');
  await assert.rejects(
    sendKeys(engine, { pane, keys: ['echo no'], literal: true, enter: false }),
    (error: unknown) => error instanceof Failure && error.kind === 'refused',
  );

  const left = await exitCopyMode(engine, pane);
  assert.equal(left.modeCount, 0);
  assert.equal((await exitCopyMode(engine, pane)).modeCount, 0, 'leaving twice is harmless');
  assert.equal((await enterCopyMode(engine, pane, { scrollUp: null })).modeCount, 1);
  assert.equal(await scroll(), '1 0');
  await exitCopyMode(engine, pane);
});

test('a missing pane is a not-found failure', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const engine = engineOn(t, tmux);
  for (const call of [() => enterCopyMode(engine, '%999', { scrollUp: 3 }), () => exitCopyMode(engine, '%999')]) {
    await assert.rejects(call(), (error: unknown) => error instanceof Failure && error.kind === 'not_found');
  }
});
