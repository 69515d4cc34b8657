import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Engine } from '../../src/core/engine.js';
import { searchPanes } from '../../src/core/read/search.js';
import { Failure } from '../../src/core/failure.js';
import { TmuxServer } from '../../src/tmux/server.js';
import { privateTmux, scrubbedEnv, TMUX_BIN, type PrivateTmux } from '../fixture/tmux.js';

function engineFor(t: { after: (fn: () => Promise<void>) => void }, tmux: PrivateTmux) {
  const server = new TmuxServer({ bin: TMUX_BIN, socketPath: tmux.socketPath, commandTimeoutMs: 10_000, env: scrubbedEnv() });
  t.after(() => server.close());
  return new Engine(server, { waitMaxMs: 10_000 });
}

/**
 * `sessions` sessions of `panesEach` panes, each running `script` and then signalling a tmux
 * wait-for channel of its own; returns once every pane has signalled (no polling, no sleeps).
 */
async function fill(tmux: PrivateTmux, sessions: number, panesEach: number, script: string) {
  const ready = (s: number, p: number) => `${script}; tmux wait-for -S ready-${s}-${p}; exec cat`;
  // The first session through start(), so the fixture knows a server runs and kills it afterwards.
  await tmux.start({ session: 's0', width: 100, height: 50, shell: ready(0, 0) });
  await Promise.all(
    Array.from({ length: sessions - 1 }, (_, s) =>
      tmux.tmux('new-session', '-d', '-s', `s${s + 1}`, '-x', '100', '-y', '50', 'sh', '-c', ready(s + 1, 0)),
    ),
  );
  for (let s = 0; s < sessions; s++) {
    for (let p = 1; p < panesEach; p++) await tmux.tmux('split-window', '-d', '-t', `s${s}`, '-l', '1', 'sh', '-c', ready(s, p));
  }
  for (let s = 0; s < sessions; s++) {
    await Promise.all(Array.from({ length: panesEach }, (_, p) => tmux.tmux('wait-for', `ready-${s}-${p}`)));
  }
}

const rows = (n: number, text = 'row-$i') => `i=1; while [ $i -le ${n} ]; do echo ${text}; i=$((i+1)); done; echo END`;

test('an invalid regex or empty pattern fails before any tmux call', async (t) => {
  const tmux = privateTmux(t);
  const engine = engineFor(t, tmux);
  await assert.rejects(
    searchPanes(engine, { pattern: '(', regex: true }),
    (e: unknown) => e instanceof Failure && /valid regular expression/.test(e.message),
  );
  await assert.rejects(searchPanes(engine, { pattern: '' }), Failure);
  assert.equal(await engine.identity(), undefined, 'no tmux server was started or touched');
});

test('200 panes of 100 rows: every pane searched, literal and regex (timing lives in the bench)', async (t) => {
  const tmux = privateTmux(t);
  await fill(tmux, 40, 5, rows(100));
  const engine = engineFor(t, tmux);

  const literal = await searchPanes(engine, { pattern: 'row-99', scrollbackLines: 100 });
  assert.equal(literal.panesSearched, 200);
  assert.equal(literal.matches.length, 200);
  assert.ok(literal.matches.every((m) => m.text === 'row-99'));
  assert.deepEqual(literal.truncatedBy, []);

  const regex = await searchPanes(engine, { pattern: 'row-9[0-9]$', regex: true, scrollbackLines: 100 });
  assert.equal(regex.matches.length, 200 * 10);
  assert.deepEqual(regex.truncatedBy, []);

  // 200 panes x 101 rows (row-1..row-100, END) is over the 20,000-row budget.
  const over = await searchPanes(engine, { pattern: 'nothing-here', scrollbackLines: 200 });
  assert.deepEqual(over.truncatedBy, ['lines']);
  assert.ok(over.panesSearched < 200);
});

test('byte, per-pane output and result budgets are reported', async (t) => {
  const tmux = privateTmux(t);
  // Each pane prints 100 rows of 3000 bytes: more than one pane's 128,000-byte share.
  await fill(tmux, 10, 1, rows(100, '$(printf "%03000d" $i)'));
  const engine = engineFor(t, tmux);

  const none = await searchPanes(engine, { pattern: 'no-such-text', scrollbackLines: 2000 });
  assert.deepEqual(none.truncatedBy, ['bytes', 'pane-output']);
  assert.ok(none.panesSearched < 10);

  const many = await searchPanes(engine, { pattern: '000', scrollbackLines: 2000, maxMatchesPerPane: 200 });
  assert.deepEqual(many.truncatedBy, ['pane-output', 'result-bytes']);
  const bytes = many.matches.reduce((sum, m) => sum + Buffer.byteLength(m.text), 0);
  assert.ok(bytes <= 128_000 && bytes > 120_000, String(bytes));
});

test('a runaway regex is stopped at the time budget and the server stays usable', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  await tmux.typeAndWait(pane, 'printf "%040d\\n" 0');
  const engine = engineFor(t, tmux);
  // Exponential backtracking on the row of 40 zeros: would run for days, so an answer at all is the time budget at work.
  const result = await searchPanes(engine, { pattern: '^(0+)+1$', regex: true });
  assert.deepEqual(result.truncatedBy, ['time']);
  const after = await searchPanes(engine, { pattern: '^0+$', regex: true });
  assert.equal(after.matches.length, 1);
  assert.deepEqual(after.truncatedBy, []);
});
