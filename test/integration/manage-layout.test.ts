/**
 * Custom layout strings: our checks must accept every layout tmux prints, and agree with tmux's own
 * select-layout on which strings are valid, except where we are deliberately stricter.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkLayout, layoutChecksum, paneCount, parseLayout, sizeProblem, withChecksum } from '../../src/core/arrange/layout.js';
import { privateTmux, type PrivateTmux } from '../fixture/tmux.js';

async function layoutOf(tmux: PrivateTmux, window: string): Promise<string> {
  return (await tmux.tmux('display-message', '-p', '-t', window, '#{window_layout}')).trim();
}

async function splitN(tmux: PrivateTmux, target: string, flags: string[]): Promise<void> {
  for (const flag of flags) await tmux.tmux('split-window', '-d', flag, '-t', target, 'sh');
}

const ours = (layout: string, panes: number): boolean => {
  try {
    checkLayout(layout, panes);
    return true;
  } catch {
    return false;
  }
};

async function theirs(tmux: PrivateTmux, window: string, layout: string): Promise<boolean> {
  try {
    await tmux.tmux('select-layout', '-t', window, layout);
    return true;
  } catch {
    return false;
  }
}

test('every layout tmux prints parses, checksums and adds up', async (t) => {
  const tmux = privateTmux(t);
  const first = await tmux.start();
  const shapes: string[][] = [[], ['-h'], ['-v', '-v'], ['-h', '-v', '-h', '-v'], ['-v', '-h', '-h', '-v', '-v', '-h']];
  const windows: string[] = [(await tmux.tmux('display-message', '-p', '-t', first, '#{window_id}')).trim()];
  for (let i = 1; i < shapes.length; i++) {
    windows.push((await tmux.tmux('new-window', '-d', '-P', '-F', '#{window_id}', 'sh')).trim());
  }
  for (const [i, window] of windows.entries()) {
    await splitN(tmux, window, shapes[i]!);
    for (const preset of ['', 'tiled', 'main-vertical', 'even-horizontal']) {
      if (preset) await tmux.tmux('select-layout', '-t', window, preset);
      const layout = await layoutOf(tmux, window);
      const root = parseLayout(layout);
      assert.equal(withChecksum(layout.slice(5)), layout, `checksum of ${layout}`);
      assert.equal(layoutChecksum(layout.slice(5)), Number.parseInt(layout.slice(0, 4), 16));
      assert.equal(paneCount(root), shapes[i]!.length + 1, layout);
      assert.equal(sizeProblem(root), undefined, layout);
      assert.doesNotThrow(() => checkLayout(layout, shapes[i]!.length + 1));
    }
  }
});

test('our checks agree with tmux select-layout, and are stricter only where documented', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const window = (await tmux.tmux('display-message', '-p', '-t', pane, '#{window_id}')).trim();
  await splitN(tmux, window, ['-h', '-v']);
  const real = await layoutOf(tmux, window);
  const body = real.slice(5);
  const noIds = body.replace(/(\d+x\d+,\d+,\d+),\d+(?=[,}\]]|$)/g, '$1');

  const agreed: Array<[string, string]> = [
    ['as printed', real],
    ['upper-case checksum', real.slice(0, 4).toUpperCase() + real.slice(4)],
    ['without pane ids', withChecksum(noIds)],
    ['other pane ids', withChecksum(body.replace(/,(\d+)(?=[,}\]]|$)/g, (_m, id) => `,${Number(id) + 40}`))],
    ['an id on a split cell', withChecksum(body.replace(/^(\d+x\d+,\d+,\d+)\{/, '$1,9{'))],
    ['another size, consistent', withChecksum('100x30,0,0{50x30,0,0,1,49x30,51,0[49x15,51,0,2,49x14,51,16,3]}')],
    ['bad checksum', `ffff,${body}`],
    ['no checksum', body],
    ['truncated', withChecksum(body.slice(0, -1))],
    ['trailing text', withChecksum(`${body}x`)],
    ['fewer cells than panes', withChecksum('120x40,0,0{60x40,0,0,1,59x40,61,0,2}')],
    ['inner sizes that do not add up', withChecksum('120x40,0,0{60x40,0,0,1,59x40,61,0[59x20,61,0,2,59x18,61,21,3]}')],
    ['a row narrower than its column', withChecksum('120x40,0,0{60x40,0,0,1,59x40,61,0[59x20,61,0,2,58x19,61,21,3]}')],
    ['a preset', 'tiled'],
  ];
  for (const [what, layout] of agreed) {
    const expected = await theirs(tmux, window, layout);
    assert.equal(ours(layout, 3), expected, `${what}: tmux ${expected ? 'accepts' : 'refuses'} ${JSON.stringify(layout)}`);
    await tmux.tmux('select-layout', '-t', window, real);
  }

  // tmux 3.3a's server crashes on `select-layout ""`, so an empty layout must never reach it.
  assert.equal(ours('', 3), false);

  // Deliberately stricter than tmux: one cell per pane (tmux drops extra cells), a root size that
  // matches its children (tmux silently corrects it), and no empty cells.
  const stricter: Array<[string, string]> = [
    ['more cells than panes', withChecksum('120x40,0,0{30x40,0,0,1,29x40,31,0,2,29x40,61,0,3,29x40,91,0,4}')],
    ['root wider than its children', withChecksum(body.replace(/^\d+x/, (m) => `${Number.parseInt(m, 10) + 5}x`))],
  ];
  for (const [what, layout] of stricter) {
    assert.equal(await theirs(tmux, window, layout), true, `${what}: tmux accepts it`);
    await tmux.tmux('select-layout', '-t', window, real);
    assert.equal(ours(layout, 3), false, `${what}: we refuse it`);
  }
});

test('the example layouts in our messages and descriptions are valid', async () => {
  const { selectLayoutTool: selectLayout } = await import('../../src/profiles/libtmux/tools/manage.js');
  const examples = selectLayout.description.match(/[0-9a-f]{4},[0-9x,{}[\]]+/g) ?? [];
  assert.ok(examples.length > 0);
  for (const example of examples) assert.doesNotThrow(() => checkLayout(example, paneCount(parseLayout(example))), example);
});
