/**
 * pipe_pane: the output path reaches tmux's /bin/sh as exactly one quoted word, whatever it holds;
 * the file with that exact name gets the pane's output and nothing else runs or appears.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Failure } from '../../src/core/failure.js';
import { isPiping, pipeCommand, startPipe, stopPipe } from '../../src/core/watch/pipe-pane.js';
import { engineOn } from '../fixture/engine.js';
import { until } from '../fixture/until.js';
import { privateTmux } from '../fixture/tmux.js';

function scratchDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-pipe-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const contains = (path: string, text: string) => () => existsSync(path) && readFileSync(path, 'utf8').includes(text);

test('bad paths are refused before any tmux runs', async (t) => {
  const tmux = privateTmux(t);
  const engine = engineOn(t, tmux, { bin: '/nonexistent/tmux-never-run' });
  for (const path of ['', '   ', 'relative/file.log', '~/file.log', './x', '/tmp/a\0b', `/${'a'.repeat(4096)}`, `/${"'".repeat(3000)}`]) {
    await assert.rejects(
      startPipe(engine, '%0', path),
      (error: unknown) => error instanceof Failure && error.kind === 'invalid_argument' && !error.touched,
      JSON.stringify(path.slice(0, 40)),
    );
  }
});

test('the command quotes the path for the shell, then escapes % and # for tmux', () => {
  assert.equal(pipeCommand("/tmp/it's 100% #1", true), "cat >> '/tmp/it'\\''s 100%% ##1'");
  assert.equal(pipeCommand('/tmp/x', false), "cat > '/tmp/x'");
  // tmux leaves a run of # before [ as it is (a style), so only other runs are doubled.
  assert.equal(pipeCommand('/tmp/#[x] ##[y] #z ##', true), "cat >> '/tmp/#[x] ##[y] ##z ####'");
});

test('hostile file names get the output under their exact name, and nothing else runs', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const engine = engineOn(t, tmux);
  const names = [
    'semi;touch INJECTED;x',
    '$(touch INJECTED)',
    '`touch INJECTED`',
    "single'quote",
    'double"quote',
    "mixed'\"quotes'",
    'new\nline\ntouch INJECTED',
    '-leading-dash',
    '--',
    '#{pane_id}#S#(touch INJECTED)',
    '#[fg=red]style',
    '##[double #single',
    '100%done %d %H',
    'space name & touch INJECTED |',
    'back\\slash\\',
    '$HOME ${HOME}',
    '~tilde',
    '*glob?[a]',
    'trailing;',
  ];
  const dirs: Array<{ dir: string; name: string }> = [];
  for (const [i, name] of names.entries()) {
    const dir = scratchDir(t);
    const path = join(dir, name);
    const started = await startPipe(engine, pane, path);
    assert.deepEqual(started, { paneId: pane, piping: true });
    const marker = `MARK-${i}-${process.pid}`;
    await tmux.typeAndWait(pane, `echo ${marker}`);
    await until(`output in ${JSON.stringify(name)}`, contains(path, marker));
    const stopped = await stopPipe(engine, pane);
    assert.deepEqual(stopped, { paneId: pane, piping: false, wasPiping: true });
    dirs.push({ dir, name });
  }
  // After every pipe has ended (the injected commands of a broken quote would run by then):
  // each directory holds exactly the one file, and nothing ran in the tmux server's directory.
  for (const { dir, name } of dirs) assert.deepEqual(readdirSync(dir), [name], JSON.stringify(name));
  assert.ok(!existsSync(join(process.cwd(), 'INJECTED')));
  assert.ok(!existsSync(join('/', 'INJECTED')));
});

test('append keeps the file, append: false truncates it; stopping twice is harmless', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const engine = engineOn(t, tmux);
  const path = join(scratchDir(t), 'out.log');
  writeFileSync(path, 'EARLIER\n');
  await startPipe(engine, pane, path);
  await tmux.typeAndWait(pane, 'echo APPENDED');
  await until('appended output', contains(path, 'APPENDED'));
  assert.ok(readFileSync(path, 'utf8').startsWith('EARLIER\n'));
  await stopPipe(engine, pane);

  await startPipe(engine, pane, path, { append: false });
  await tmux.typeAndWait(pane, 'echo FRESH');
  await until('fresh output', contains(path, 'FRESH'));
  assert.ok(!readFileSync(path, 'utf8').includes('EARLIER'));
  await stopPipe(engine, pane);
  assert.deepEqual(await stopPipe(engine, pane), { paneId: pane, piping: false, wasPiping: false });
  assert.equal(await isPiping(engine, pane), false);
});

test('a missing pane is a not-found failure', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const engine = engineOn(t, tmux);
  await assert.rejects(
    startPipe(engine, '%999', join(scratchDir(t), 'x.log')),
    (error: unknown) => error instanceof Failure && error.kind === 'not_found',
  );
});
