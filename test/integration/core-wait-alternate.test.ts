/**
 * Waits and the alternate screen: switches are seen in the pane's output (or read at entry), a
 * wait reports whether the pane showed the alternate screen, and on request ignores what a
 * full-screen program draws there.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeCursor, compileMatchers, waitForText, type WaitRequest } from '../../src/core/watch/wait.js';
import { EscapeFilter } from '../../src/core/read/terminal-text.js';
import type { Engine } from '../../src/core/engine.js';
import { engineOn } from '../fixture/engine.js';
import { privateTmux } from '../fixture/tmux.js';
import { getPane } from '../../src/core/index.js';

test('the escape filter follows switches to and from the alternate screen, across chunks', () => {
  const filter = new EscapeFilter();
  assert.equal(filter.alternate, undefined);
  assert.equal(filter.write('a\u001b[?25hb'), 'ab');
  assert.equal(filter.alternate, undefined, 'cursor visibility is no screen switch');
  assert.equal(filter.write('\u001b[?10'), '');
  assert.equal(filter.write('49hdrawn'), 'drawn');
  assert.deepEqual([filter.alternate, filter.alternateEntries], [true, 1]);
  filter.write('\u001b[?1049l');
  assert.deepEqual([filter.alternate, filter.alternateEntries], [false, 1]);
  filter.write('\u001b[?1;47h');
  assert.deepEqual([filter.alternate, filter.alternateEntries], [true, 2]);
  filter.write('\u001bc');
  assert.equal(filter.alternate, false, 'a terminal reset leaves the alternate screen');
  filter.write('\u001b[1049h\u001b[?1047h');
  assert.deepEqual([filter.alternate, filter.alternateEntries], [true, 3], 'only the private mode (with ?) switches');
});

/** A wait resumed from a cursor taken before `command` ran, so its output is scanned whatever the timing. */
async function waitAfter(engine: Engine, pane: string, type: () => Promise<void>, request: Partial<WaitRequest>) {
  const record = await getPane(engine, pane);
  const base = {
    pane: record,
    patterns: compileMatchers(['NEEDLE'], false, 'patterns'),
    stops: [],
    maxLines: 50,
    signal: new AbortController().signal,
  };
  const mark = await waitForText(engine, { ...base, timeoutMs: 1 });
  await type();
  return waitForText(engine, { ...base, cursor: decodeCursor(mark.cursor!), timeoutMs: 1500, ...request });
}

test('text drawn on the alternate screen matches only when not skipped; the switch is reported either way', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const engine = engineOn(t, tmux);
  // The pattern is spelled with an octal escape in the command, so the echo of the typed line never matches.
  const enterAndDraw = () => tmux.typeAndWait(pane, `printf '\\033[?1049hNEE\\104LE drawn\\n'`);

  const matched = await waitAfter(engine, pane, enterAndDraw, {});
  assert.equal(matched.outcome, 'matched');
  assert.equal(matched.alternateScreen, true);

  await tmux.typeAndWait(pane, `printf '\\033[?1049l'`);
  const skipped = await waitAfter(engine, pane, enterAndDraw, { skipAlternateScreen: true });
  assert.equal(skipped.outcome, 'timedOut');
  assert.equal(skipped.matched, null);
  assert.equal(skipped.alternateScreen, true);
  await tmux.typeAndWait(pane, `printf '\\033[?1049l'`);

  // Back on the normal screen, printed text matches again, and the visit is still reported.
  const after = await waitAfter(engine, pane, () => tmux.typeAndWait(pane, `printf '\\033[?1049hdrawn\\033[?1049lNEE\\104LE printed\\n'`), {
    skipAlternateScreen: true,
  });
  assert.equal(after.outcome, 'matched');
  assert.equal(after.alternateScreen, true);

  const plain = await waitAfter(engine, pane, () => tmux.typeAndWait(pane, `printf 'NEE\\104LE plain\\n'`), { skipAlternateScreen: true });
  assert.equal(plain.outcome, 'matched');
  assert.equal(plain.alternateScreen, false);
});

test('a pane already on the alternate screen when the watch begins counts as on it', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  await tmux.typeAndWait(pane, `printf '\\033[?1049h'`);
  assert.equal((await tmux.tmux('display-message', '-p', '-t', pane, '#{alternate_on}')).trim(), '1');
  // A fresh engine has no stream yet: only the state read at entry can tell.
  const engine = engineOn(t, tmux);
  const result = await waitForText(engine, {
    pane: await getPane(engine, pane),
    patterns: compileMatchers(['NEEDLE'], false, 'patterns'),
    stops: [],
    maxLines: 50,
    timeoutMs: 300,
    signal: new AbortController().signal,
    skipAlternateScreen: true,
  });
  assert.equal(result.outcome, 'timedOut');
  assert.equal(result.alternateScreen, true);
});
