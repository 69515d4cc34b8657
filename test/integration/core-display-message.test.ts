/**
 * display_message: the caller's tmux format is expanded on a validated target, with nothing that
 * could run a program (#() jobs, E:/T: re-expansion) and with bounded output.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkFormat, displayMessage, MAX_DISPLAY_BYTES } from '../../src/core/read/display-message.js';
import { Failure } from '../../src/core/failure.js';
import { renameWindow } from '../../src/core/arrange/naming.js';
import { engineOn } from '../fixture/engine.js';
import { until } from '../fixture/until.js';
import { privateTmux } from '../fixture/tmux.js';
import { getPane, getWindow } from '../../src/core/index.js';

const untouched = (kind: string) => (error: unknown) => error instanceof Failure && error.kind === kind && !error.touched;

test('formats that could run a program are refused; plain formats pass', () => {
  for (const bad of [
    '#(id)',
    'x #(id)',
    '###(id)',
    '#{?1,#(id),}',
    '#{E:pane_title}',
    '#{=5;E:pane_title}',
    '#{T:status-left}',
    '#{l;T;=3:x}',
    '#%Z(id)',
    '#%-5Z(id)',
    '#{%ZE:pane_title}',
    '#{=5;%ZT:x}',
    'a\0b',
    'x'.repeat(4097),
  ]) {
    assert.throws(() => checkFormat(bad), untouched('invalid_argument'), JSON.stringify(bad.slice(0, 40)));
  }
  for (const ok of [
    '',
    '##(literal)',
    '#{pane_id}',
    '#{=5:pane_title}',
    '#{session_name}: #{window_index}',
    'E: plain text',
    '#{s/E:/x/:pane_title}',
    '%H:%M',
  ]) {
    assert.doesNotThrow(() => checkFormat(ok), JSON.stringify(ok));
  }
});

test('bad targets and formats are refused before any tmux runs', async (t) => {
  const tmux = privateTmux(t);
  const engine = engineOn(t, tmux, { bin: '/nonexistent/tmux-never-run' });
  await assert.rejects(displayMessage(engine, '#{pane_id}', 'main'), untouched('invalid_argument'));
  await assert.rejects(displayMessage(engine, '#{pane_id}', '%1;kill-server'), untouched('invalid_argument'));
  await assert.rejects(displayMessage(engine, '#(touch x)', '%1'), untouched('invalid_argument'));
});

test('formats expand on a pane, window or session target; strftime too; a leading - is the format', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'main' });
  const engine = engineOn(t, tmux);
  const [windowId, sessionId] = (await tmux.tmux('display-message', '-p', '-t', pane, '#{window_id} #{session_id}')).trim().split(' ');
  assert.deepEqual(await displayMessage(engine, '#{pane_id}|#{session_name}', pane), { text: `${pane}|main`, truncatedBytes: 0 });
  assert.equal((await displayMessage(engine, '#{window_id}', windowId)).text, windowId);
  assert.equal((await displayMessage(engine, '#{session_id}', sessionId)).text, sessionId);
  assert.match((await displayMessage(engine, '%Y 100%% ##(x)', pane)).text, /^\d{4} 100% #\(x\)$/);
  assert.equal((await displayMessage(engine, '-a', pane)).text, '-a');
  assert.equal((await displayMessage(engine, '#{no_such_variable}', pane)).text, '');
  for (const missing of ['%999', '@999', '$999']) {
    await assert.rejects(
      displayMessage(engine, '#{pane_id}', missing),
      (error: unknown) => error instanceof Failure && error.kind === 'not_found',
      missing,
    );
  }
});

test('a job hidden in a value a program set comes back as text and never runs', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const engine = engineOn(t, tmux);
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-display-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const marker = join(dir, 'RAN');
  // The program in the pane sets its title to a shell job.
  await tmux.typeAndWait(pane, `printf '\\033]2;#(touch ${marker})\\033\\\\'`);
  await until('the title', async () => (await displayMessage(engine, '#{pane_title}', pane)).text.includes('#(touch'));
  assert.equal((await displayMessage(engine, '#{pane_title}', pane)).text, `#(touch ${marker})`);
  await assert.rejects(displayMessage(engine, '#{E:pane_title}', pane), untouched('invalid_argument'));
  assert.ok(!existsSync(marker));
});

test('output is cut at the byte budget and the cut is counted', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const engine = engineOn(t, tmux);
  const width = MAX_DISPLAY_BYTES + 5000;
  const result = await displayMessage(engine, `#{p${width}:pane_id}`, pane);
  assert.equal(Buffer.byteLength(result.text), MAX_DISPLAY_BYTES);
  assert.equal(result.truncatedBytes, 5000);
});

test('names with # runs and #[ arrive as typed (literalFormat)', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const engine = engineOn(t, tmux);
  const window = await getWindow(engine, (await getPane(engine, pane)).windowId);
  for (const name of ['#[fg=red]x', '##[y] #z ## %d', 'a#{pane_id}b']) {
    assert.equal((await renameWindow(engine, window, name)).name, name);
  }
});
