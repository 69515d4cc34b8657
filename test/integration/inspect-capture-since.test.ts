import assert from 'node:assert/strict';
import { test } from 'node:test';
import { captureSince, decodeSinceCursor } from '../../src/core/read/capture-since.js';
import { Engine } from '../../src/core/engine.js';
import { Failure } from '../../src/core/failure.js';
import { TmuxServer } from '../../src/tmux/server.js';
import { privateTmux, scrubbedEnv, TMUX_BIN, type PrivateTmux } from '../fixture/tmux.js';
import { alive } from '../fixture/processes.js';
import { until } from '../fixture/until.js';
import { resolvePane } from '../../src/core/index.js';

function engineFor(t: { after: (fn: () => Promise<void>) => void }, tmux: PrivateTmux) {
  const server = new TmuxServer({ bin: TMUX_BIN, socketPath: tmux.socketPath, commandTimeoutMs: 10_000, env: scrubbedEnv() });
  t.after(() => server.close());
  return new Engine(server, { waitMaxMs: 10_000 });
}

/** A pane whose shell prints no prompt, so the screen is final once typeAndWait returns. */
async function quietPane(t: Parameters<typeof privateTmux>[0]) {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  await tmux.typeAndWait(pane, "PS1=''");
  const engine = engineFor(t as never, tmux);
  const since = async (cursor?: string, extra: { maxLines?: number; waitMs?: number } = {}) =>
    captureSince(engine, await resolvePane(engine, pane), { cursor, maxLines: 2000, ...extra });
  return { tmux, pane, engine, since };
}

test('output that scrolls far past the screen is returned whole, in order', async (t) => {
  const { tmux, pane, since } = await quietPane(t);
  const start = await since();
  await tmux.typeAndWait(pane, 'i=1; while [ $i -le 100 ]; do echo line-$i; i=$((i+1)); done');
  const result = await since(start.cursor);
  assert.equal(result.linesMissed, false);
  // The typed command (wrapped over two rows: the wait-for socket path is long), then the output.
  assert.match(result.lines[0]!, /^i=1; while/);
  assert.ok(result.lines.length <= 103, String(result.lines.length));
  assert.deepEqual(
    result.lines.slice(-100),
    Array.from({ length: 100 }, (_, i) => `line-${i + 1}`),
  );
  assert.deepEqual((await since(result.cursor)).lines, []);
});

test('following a pane that prints continuously loses nothing', async (t) => {
  const tmux = privateTmux(t);
  const first = await tmux.start();
  const engine = engineFor(t, tmux);
  // A new pane, so it gets the fixture's history-limit of 100000 rows.
  const pane = (await tmux.tmux('split-window', '-d', '-P', '-F', '#{pane_id}', '-t', first, 'sh', '-c', 'exec cat')).trim();
  const record = await resolvePane(engine, pane);
  let cursor = (await captureSince(engine, record, {})).cursor;
  await tmux.tmux(
    'respawn-pane',
    '-k',
    '-t',
    pane,
    'sh',
    '-c',
    'i=0; while [ $i -lt 30000 ]; do echo n$i; i=$((i+1)); done; echo END; exec cat',
  );
  const fresh = await resolvePane(engine, pane);
  cursor = (await captureSince(engine, fresh, { cursor })).cursor; // restarted: the pane was respawned
  // Rows printed before the restarted cursor are not reported: count from the first row seen.
  let next: number | undefined;
  let drops = 0;
  let gaps = 0;
  await until(
    () => `END, stuck at n${next}`,
    async () => {
      let done = false;
      const result = await captureSince(engine, fresh, { cursor, maxLines: 2000, waitMs: 2000 });
      assert.equal(result.linesMissed, false);
      if (result.droppedLines > 0) drops++;
      for (const line of result.lines) {
        if (line === 'END') done = true;
        const match = /^n(\d+)$/.exec(line);
        if (!match) continue;
        const n = Number(match[1]);
        // A row captured while it was being written ("n12" of "n1234") is reported again once complete.
        if (next !== undefined && n !== next && String(next).startsWith(match[1]!)) continue;
        if (next !== undefined && n !== next) gaps++;
        next = n + 1;
      }
      cursor = result.cursor;
      return done;
    },
    60_000,
  );
  assert.equal(next, 30000);
  t.diagnostic(`${gaps} gaps, ${drops} reads over maxLines`);
  assert.ok(gaps <= drops, `${gaps} gaps, but only ${drops} reads left rows out`);
});

test('a prompt rewritten in place is reported again, each time it changes', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const engine = engineFor(t, tmux);
  const record = await resolvePane(engine, pane);
  let cursor = (await captureSince(engine, record, {})).cursor;
  await tmux.tmux('send-keys', '-t', pane, '-l', 'abc');
  const seen: string[] = [];
  // waitMs wakes on the pane's output; typing may arrive in more than one piece.
  // The shell's prompt is "$ " (or "# " for root).
  await until(
    () => `the typed line, seen so far ${JSON.stringify(seen)}`,
    async () => {
      const result = await captureSince(engine, record, { cursor, waitMs: 5000 });
      assert.ok(result.lines.length > 0, 'the typed text arrives within the wait');
      for (const line of result.lines) assert.match(line, /^[$#] a?b?c?$/);
      seen.push(...result.lines);
      cursor = result.cursor;
      return seen.some((line) => /^[$#] abc$/.test(line));
    },
    20_000,
  );
  assert.deepEqual((await captureSince(engine, record, { cursor })).lines, []);
});

test('an unchanged status line below the cursor is not reported again', async (t) => {
  const { tmux, pane, since } = await quietPane(t);
  // Clear the screen, draw a status line on row 4 and leave the cursor on row 2.
  await tmux.typeAndWait(pane, "printf '\\033[H\\033[2Jone\\n\\n\\nSTATUS\\033[2;1H'");
  const start = await since();
  await tmux.typeAndWait(pane, 'printf two');
  const result = await since(start.cursor);
  assert.equal(result.lines.includes('STATUS'), false, result.lines.join('\n'));
  assert.equal(result.lines.at(-1), 'two');
  assert.match(result.lines[0]!, /^printf two/);
});

test('cleared history and a switched screen are reported as linesMissed', async (t) => {
  const { tmux, pane, since } = await quietPane(t);
  await tmux.typeAndWait(pane, 'i=1; while [ $i -le 100 ]; do echo old-$i; i=$((i+1)); done');
  const start = await since();
  await tmux.tmux('clear-history', '-t', pane);
  await tmux.typeAndWait(pane, 'echo after-clear');
  const cleared = await since(start.cursor);
  assert.equal(cleared.linesMissed, true);
  assert.ok(cleared.lines.includes('after-clear'), cleared.lines.join('\n'));

  await tmux.typeAndWait(pane, "printf '\\033[?1049hALT-SCREEN'");
  const switched = await since(cleared.cursor);
  assert.equal(switched.linesMissed, true);
  assert.ok(
    switched.lines.some((line) => line.includes('ALT-SCREEN')),
    switched.lines.join('\n'),
  );
});

test('a cursor from an earlier tmux server restarts instead of reading a reused pane id', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const engine = engineFor(t, tmux);
  const old = await captureSince(engine, await resolvePane(engine, pane), {});
  const serverPid = Number((await tmux.tmux('display-message', '-p', '#{pid}')).trim());
  await tmux.tmux('kill-server');
  // kill-server returns before the server is gone, and tmux has no event for that: poll, bounded.
  await until('the old tmux server to exit', () => !alive(serverPid));
  const again = await tmux.start();
  assert.equal(again, pane, 'tmux reuses the pane id');
  const result = await captureSince(engine, await resolvePane(engine, again), { cursor: old.cursor });
  assert.equal(result.restarted, true);
  assert.deepEqual(result.lines, []);
  assert.notEqual(result.cursor, old.cursor);
});

test('garbled cursors are refused', () => {
  for (const bad of [
    '',
    'cs1.',
    'cs1.!!!',
    'cs2.e30',
    'cs1.' + Buffer.from('[]').toString('base64url'),
    'cs1.' + Buffer.from('{"p":"%1"}').toString('base64url'),
  ]) {
    assert.throws(
      () => decodeSinceCursor(bad),
      (e: unknown) => e instanceof Failure && e.kind === 'invalid_argument',
      bad,
    );
  }
});
