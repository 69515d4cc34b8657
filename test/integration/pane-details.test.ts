/**
 * Pane geometry (src/core/read/pane-details.ts) against tmux's own format fields. The right and bottom
 * edges are computed rather than asked of tmux, so they are held here to tmux's answer for split,
 * zoomed and bordered windows, through both the listing and the one-pane read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Engine } from '../../src/core/engine.js';
import { listPaneDetails, paneDetail, type PaneDetail } from '../../src/core/read/pane-details.js';
import { TmuxServer } from '../../src/tmux/server.js';
import { privateTmux, scrubbedEnv, TMUX_BIN, type PrivateTmux } from '../fixture/tmux.js';

const FIELDS = [
  'pane_id',
  'pane_left',
  'pane_top',
  'pane_right',
  'pane_bottom',
  'pane_width',
  'pane_height',
  'pane_at_left',
  'pane_at_right',
  'pane_at_top',
  'pane_at_bottom',
  'pane_tty',
];

/** tmux's own geometry of every pane, as the fields PaneDetail carries. */
async function tmuxGeometry(tmux: PrivateTmux): Promise<Map<string, Record<string, string | number | boolean>>> {
  const out = await tmux.tmux('list-panes', '-a', '-F', FIELDS.map((f) => `#{${f}}`).join(' '));
  const view = new Map<string, Record<string, string | number | boolean>>();
  for (const line of out.trim().split('\n')) {
    const [id, left, top, right, bottom, width, height, atLeft, atRight, atTop, atBottom, tty] = line.split(' ');
    view.set(id!, {
      left: Number(left),
      top: Number(top),
      right: Number(right),
      bottom: Number(bottom),
      width: Number(width),
      height: Number(height),
      isAtLeft: atLeft === '1',
      isAtRight: atRight === '1',
      isAtTop: atTop === '1',
      isAtBottom: atBottom === '1',
      tty: tty!,
    });
  }
  return view;
}

const geometry = (pane: PaneDetail) => ({
  left: pane.left,
  top: pane.top,
  right: pane.right,
  bottom: pane.bottom,
  width: pane.width,
  height: pane.height,
  isAtLeft: pane.isAtLeft,
  isAtRight: pane.isAtRight,
  isAtTop: pane.isAtTop,
  isAtBottom: pane.isAtBottom,
  tty: pane.tty,
});

async function assertSameAsTmux(tmux: PrivateTmux, engine: Engine, what: string): Promise<void> {
  const theirs = await tmuxGeometry(tmux);
  const listed = await listPaneDetails(engine);
  assert.equal(listed.length, theirs.size, what);
  for (const pane of listed) {
    assert.deepEqual(geometry(pane), theirs.get(pane.id), `${what}: pane ${pane.id} listed`);
    assert.deepEqual(geometry(await paneDetail(engine, pane.id)), theirs.get(pane.id), `${what}: pane ${pane.id} read alone`);
  }
}

test("pane edges and window-edge flags equal tmux's own, split, bordered and zoomed", async (t) => {
  const tmux = privateTmux(t);
  const first = await tmux.start({ width: 101, height: 37 });
  const server = new TmuxServer({ bin: TMUX_BIN, socketPath: tmux.socketPath, commandTimeoutMs: 5000, env: scrubbedEnv() });
  t.after(() => server.close());
  const engine = new Engine(server, { waitMaxMs: 10_000 });
  const right = (await tmux.tmux('split-window', '-h', '-d', '-P', '-F', '#{pane_id}', '-t', first, '-l', '33')).trim();
  await tmux.tmux('split-window', '-v', '-d', '-t', right, '-l', '10');
  await tmux.tmux('split-window', '-v', '-d', '-t', first);
  await assertSameAsTmux(tmux, engine, 'split');
  for (const status of ['top', 'bottom']) {
    await tmux.tmux('set-option', '-w', '-t', first, 'pane-border-status', status);
    await assertSameAsTmux(tmux, engine, `border status ${status}`);
  }
  await tmux.tmux('resize-pane', '-Z', '-t', right);
  await assertSameAsTmux(tmux, engine, 'zoomed');
});
