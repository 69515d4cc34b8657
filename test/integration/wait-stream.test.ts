import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Engine } from '../../src/core/engine.js';
import { PaneStream } from '../../src/core/watch/pane-stream.js';
import { openPaneStream } from '../../src/core/watch/pane-streams.js';
import { fingerprint } from '../../src/core/targets/refs.js';
import { checkCommand, runCommand } from '../../src/core/act/run-command.js';
import { EscapeFilter, renderLine } from '../../src/core/read/terminal-text.js';
import { compileMatchers, decodeCursor, encodeCursor, waitForText } from '../../src/core/watch/wait.js';
import { Failure } from '../../src/core/failure.js';
import { TmuxServer } from '../../src/tmux/server.js';
import { privateTmux, scrubbedEnv, TMUX_BIN, type PrivateTmux } from '../fixture/tmux.js';
import { getPane } from '../../src/core/index.js';

function engineFor(t: { after: (fn: () => Promise<void>) => void }, tmux: PrivateTmux): Engine {
  const server = new TmuxServer({ bin: TMUX_BIN, socketPath: tmux.socketPath, commandTimeoutMs: 5000, env: scrubbedEnv() });
  t.after(() => server.close());
  return new Engine(server, { waitMaxMs: 60_000 });
}

const filtered = (chunks: string[]) => {
  const filter = new EscapeFilter();
  return chunks.map((c) => filter.write(c)).join('');
};

test('escape filter: sequences cut across chunks are removed; text stays', () => {
  assert.equal(filtered(['\x1b[1;3', '1mred\x1b', '[0m plain']), 'red plain');
  assert.equal(filtered(['a\x1b]0;tit', 'le\x07b', '\x1b]8;;http://x\x1b', '\\link\x1b]8;;\x1b\\c']), 'ablinkc');
  assert.equal(filtered(['\x1b(Bx\x1b=y\x1b>z\x1bPq#0;1\x1b\\w']), 'xyzw');
  assert.equal(filtered(['one\r\ntwo\ttab\bx\x07\x0e']), 'one\r\ntwo\ttab\bx');
  // A move to another row separates text drawn there; moves on an empty line add nothing.
  assert.equal(filtered(['\x1b[H\x1b[2Jtop\x1b[5;1Hbottom\x1b[6;1H\x1b[7;1Hlast']), 'top\nbottom\nlast');
  assert.equal(filtered(['日本語 🎉']), '日本語 🎉');
});

test('renderLine applies carriage returns and backspaces like a terminal', () => {
  assert.equal(renderLine('10%\r20%\r100%'), '100%');
  assert.equal(renderLine('abcdef\rXY'), 'XYcdef');
  assert.equal(renderLine('ab\bc'), 'ac');
  assert.equal(renderLine('\rprompt$ '), 'prompt$ ');
  assert.equal(renderLine('plain'), 'plain');
});

test('pane stream: lines are numbered absolutely, old ones dropped beyond the bound, long lines cut', () => {
  const stream = new PaneStream('%1', '$0');
  stream.push('first\r\nsec');
  assert.deepEqual(stream.end, { line: 1, col: 3 });
  stream.push('ond\r\n');
  assert.equal(stream.line(0), 'first');
  assert.equal(stream.line(1), 'second');
  assert.equal(stream.line(2), '');
  for (let i = 0; i < 20_000; i++) stream.push(`line ${i}\n`);
  assert.equal(stream.end.line, 20_002);
  assert.ok(stream.firstLine > 0, 'old lines dropped');
  assert.equal(stream.line(0), undefined);
  assert.equal(stream.line(20_001), 'line 19999');
  stream.push('x'.repeat(200_000));
  assert.ok(stream.end.line > 20_002, 'a line without end is cut into pieces');
  assert.ok(stream.end.col < 200_000);
});

test('matchers: literal, regex, invalid regex, empty pattern', () => {
  const [literal] = compileMatchers(['a.c'], false, 'patterns');
  assert.equal(literal!.find('xxabc'), -1);
  assert.equal(literal!.find('xa.cx'), 4);
  const [rx] = compileMatchers(['a.c'], true, 'patterns');
  assert.equal(rx!.find('xxabc'), 5);
  const [insensitive] = compileMatchers(['(?i)error'], true, 'patterns');
  assert.equal(insensitive!.find('An ERROR here'), 8);
  assert.throws(
    () => compileMatchers(['ok', '(x'], true, 'stop'),
    (e: unknown) => e instanceof Failure && /stop\[1\] is not a valid regular expression/.test(e.message),
  );
  assert.throws(() => compileMatchers([''], false, 'patterns'), /empty/);
});

test('cursors round-trip and garbage is an invalid argument', () => {
  const cursor = { fingerprint: 'abcdefghijkl', paneId: '%3', streamKey: 'k1', position: { line: 12, col: 4 } };
  assert.deepEqual(decodeCursor(encodeCursor(cursor)), cursor);
  for (const bad of ['', 'tmuxw1_', 'tmuxw1_!!!', 'cs1.abc', 'tmuxw1_' + Buffer.from('[1,2]').toString('base64url')]) {
    assert.throws(
      () => decodeCursor(bad),
      (e: unknown) => e instanceof Failure && e.kind === 'invalid_argument',
      bad,
    );
  }
});

test('checkCommand normalises and refuses what cannot be typed as text', () => {
  assert.equal(checkCommand('echo a\r\necho b\n\n  '), 'echo a\necho b');
  assert.throws(() => checkCommand('\n \n'), /empty/);
  assert.throws(() => checkCommand('echo\ta'), /tab/);
  assert.throws(() => checkCommand('echo \x1b[A'), /control character 0x1b/);
  assert.throws(() => checkCommand('echo a\rb'), /carriage return/);
  assert.throws(() => checkCommand('x'.repeat(5000)), /longer than 4000 bytes/);
});

test('waitForText: cancellation answers at once; two waits share one stream', async (t) => {
  const tmux = privateTmux(t);
  const paneId = await tmux.start();
  const engine = engineFor(t, tmux);
  const pane = await getPane(engine, paneId);
  const controller = new AbortController();
  const request = { pane, stops: [], timeoutMs: 60_000, maxLines: 20 };
  const cancelled = waitForText(engine, { ...request, patterns: compileMatchers(['never'], false, 'patterns'), signal: controller.signal });
  controller.abort();
  // Cancelled, not timed out: the 60 s wait did not run its course.
  const r = await cancelled;
  assert.equal(r.outcome, 'cancelled');

  // Hold the stream so both waits start from a known position: before the text is printed.
  const lease = await openPaneStream(engine, pane);
  t.after(() => lease.release());
  const at = lease.stream.end;
  const cursor = { fingerprint: fingerprint(pane.incarnation), paneId, streamKey: lease.stream.key, position: at };
  const signal = new AbortController().signal;
  const one = waitForText(engine, { ...request, patterns: compileMatchers(['SHARED-1'], false, 'patterns'), cursor, signal });
  const two = waitForText(engine, { ...request, patterns: compileMatchers(['SHARED-\\d'], true, 'patterns'), cursor, signal });
  await tmux.typeAndWait(paneId, 'echo SHARED-$((0+1))');
  const [a, b] = await Promise.all([one, two]);
  assert.equal(a.outcome, 'matched');
  assert.equal(b.outcome, 'matched');
  assert.equal(decodeCursor(a.cursor!).streamKey, lease.stream.key, 'one stream serves every wait on the pane');
  assert.equal(decodeCursor(b.cursor!).streamKey, lease.stream.key);

  // A cursor from a stream that no longer exists starts from now, and says so.
  const stale = await waitForText(engine, {
    ...request,
    patterns: compileMatchers(['SHARED-1'], false, 'patterns'),
    cursor: { ...cursor, streamKey: 'gone' },
    timeoutMs: 200,
    signal,
  });
  assert.equal(stale.outcome, 'timedOut');
  assert.match(stale.note ?? '', /watch that has ended/);
});

test('runCommand: huge output keeps the newest lines and counts the rest exactly; one run per pane at a time', async (t) => {
  const tmux = privateTmux(t);
  const paneId = await tmux.start();
  const engine = engineFor(t, tmux);
  const pane = await getPane(engine, paneId);
  const signal = new AbortController().signal;
  const big = await runCommand(engine, { pane, command: 'seq 1 30000', timeoutMs: 30_000, maxLines: 5, signal });
  assert.equal(big.exitStatus, 0);
  assert.deepEqual(big.output, ['29996', '29997', '29998', '29999', '30000']);
  assert.equal(big.droppedLines, 29_995);
  assert.equal(big.linesMissed, false);

  const first = runCommand(engine, { pane, command: 'sleep 0.3; echo first', timeoutMs: 10_000, maxLines: 5, signal });
  await assert.rejects(
    runCommand(engine, { pane, command: 'echo second', timeoutMs: 10_000, maxLines: 5, signal }),
    /still running an earlier run_shell_command/,
  );
  assert.deepEqual((await first).output, ['first']);

  // Cancelling stops the wait, not the command; the pane gets its prompt back afterwards.
  const controller = new AbortController();
  const running = runCommand(engine, { pane, command: 'sleep 0.2; echo late', timeoutMs: 10_000, maxLines: 5, signal: controller.signal });
  controller.abort();
  assert.equal((await running).outcome, 'cancelled');
});

test('waitForText: a long wait on a chatty pane returns just the newest lines as its tail', async (t) => {
  const tmux = privateTmux(t);
  const paneId = await tmux.start();
  const engine = engineFor(t, tmux);
  const pane = await getPane(engine, paneId);
  const lease = await openPaneStream(engine, pane);
  t.after(() => lease.release());
  const cursor = { fingerprint: fingerprint(pane.incarnation), paneId, streamKey: lease.stream.key, position: lease.stream.end };
  await tmux.typeAndWait(paneId, "seq 1 5000; printf 'END-%s\\n' MARK");
  const r = await waitForText(engine, {
    pane,
    patterns: compileMatchers(['END-MARK'], false, 'patterns'),
    stops: [],
    cursor,
    timeoutMs: 10_000,
    maxLines: 3,
    signal: new AbortController().signal,
  });
  assert.equal(r.outcome, 'matched');
  assert.equal(r.tail.length, 3);
  assert.ok(r.tail.includes('END-MARK'), JSON.stringify(r.tail));
  // At least 1..4998 are left out; the echo of the typed line and the prompt after END-MARK may or may not
  // be in the same read, so the count is certain only from below.
  assert.ok(r.droppedLines >= 4998, String(r.droppedLines));
});
