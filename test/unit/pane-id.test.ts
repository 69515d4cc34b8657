/** One pane-id shape, tmux's own (`%` and a number without leading zeros), used by every layer that checks one. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { PANE_ID } from '../../src/tmux/ids.js';
import { parseCli } from '../../src/cli/options.js';

const julia = readFileSync(new URL('../contract/julia.json', import.meta.url), 'utf8');

test('a pane id is written as tmux writes it', () => {
  for (const good of ['%0', '%3', '%12', '%4294967295']) assert.ok(PANE_ID.test(good), good);
  for (const bad of ['%03', '%00', '%', '3', '%3 ', ' %3', '%+3', '%-1', '%3a', '@3', '%3\n'])
    assert.ok(!PANE_ID.test(bad), JSON.stringify(bad));
});

test("the julia contract's pane-id pattern is the same shape", () => {
  const patterns = new Set([...julia.matchAll(/"pattern": *"(\^%[^"]*)"/g)].map((m) => m[1]));
  assert.deepEqual([...patterns], [PANE_ID.source]);
});

test('TMUX_PANE in another spelling names no caller pane', () => {
  const caller = (paneId: string) => {
    const action = parseCli([], { TMUX_PANE: paneId, TMUX: '/tmp/tmux-1000/default,4242,0' });
    assert.equal(action.kind, 'serve');
    return action.kind === 'serve' ? action.config.caller : undefined;
  };
  assert.deepEqual(caller('%7'), { paneId: '%7', serverPid: 4242, socketPath: '/tmp/tmux-1000/default' });
  assert.equal(caller('%07'), undefined);
});
