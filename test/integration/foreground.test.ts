/**
 * The pane foreground read from /proc (src/core/read/foreground.ts) against tmux's own
 * #{pane_current_command} and #{pane_current_path}, pane by pane, for programs whose first argument
 * puts tmux's naming rules to work, a foreground job, odd directories, a dead pane and a pane that
 * left its terminal (the last two answered by tmux itself).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Engine } from '../../src/core/engine.js';
import { readForeground, windowName } from '../../src/core/read/foreground.js';
import { TmuxServer } from '../../src/tmux/server.js';
import { privateTmux, scrubbedEnv, TMUX_BIN, type PrivateTmux } from '../fixture/tmux.js';
import { until } from '../fixture/until.js';

function engineFor(t: { after: (fn: () => Promise<void>) => void }, tmux: PrivateTmux, localProcesses?: boolean) {
  const server = new TmuxServer({ bin: TMUX_BIN, socketPath: tmux.socketPath, commandTimeoutMs: 5000, env: scrubbedEnv() });
  t.after(() => server.close());
  return new Engine(server, { waitMaxMs: 10_000, ...(localProcesses === undefined ? {} : { localProcesses }) });
}

const SEP = '\u001f';

/** tmux's own view of every pane: id -> [command, path]. */
async function tmuxView(tmux: PrivateTmux): Promise<Map<string, [string, string]>> {
  const out = await tmux.tmux('list-panes', '-a', '-F', `#{pane_id}${SEP}#{pane_current_command}${SEP}#{pane_current_path}${SEP}END`);
  const view = new Map<string, [string, string]>();
  for (const row of out.split(`${SEP}END\n`).filter(Boolean)) {
    const [id, command, path] = row.split(SEP);
    view.set(id!, [command!, path!]);
  }
  return view;
}

/**
 * Compares the engine's rows with tmux's, read before and after them; a pane still starting (a
 * shell about to exec) changes between the two tmux reads, and the comparison is made again.
 */
async function assertSameAsTmux(tmux: PrivateTmux, engine: Engine, minPanes: number): Promise<number> {
  const settled = await until('tmux to show the panes settled', async () => {
    const before = await tmuxView(tmux);
    const ours = await engine.listPanes();
    const serverPid = (await engine.requireIdentity()).pid;
    const direct = ours.map((pane) => readForeground({ pid: pane.pid, serverPid }));
    const after = await tmuxView(tmux);
    if (JSON.stringify([...before]) === JSON.stringify([...after]) && before.size >= minPanes) {
      assert.equal(ours.length, before.size);
      ours.forEach((pane, i) => {
        assert.deepEqual([pane.currentCommand, pane.currentPath], before.get(pane.id), `pane ${pane.id}`);
        const read = direct[i];
        if (read) assert.deepEqual([read.command, read.path], before.get(pane.id), `read from /proc: pane ${pane.id}`);
      });
      return { read: direct.filter(Boolean).length };
    }
    return undefined;
  }, 20_000);
  return settled.read;
}

test('foreground command and directory equal tmux\'s own, pane by pane', async (t) => {
  const tmux = privateTmux(t);
  const shell = await tmux.start();
  const odd = join(tmux.dir, 'dir with space\nnewline \u00e9\u6f22 #{pane_id}');
  mkdirSync(odd);
  // First arguments that exercise tmux's naming: a path with spaces and trailing dashes, a login
  // name, a leading "exec ", quotes, a trailing non-ASCII letter, a bare "/".
  const argv0s = ['/some/dir/my prog--', '-login', 'exec  tool x', '"quoted name" rest', 'caf\u00e9', '/', '/usr/bin/', 'a-very-long-program-name-beyond-comm'];
  for (const argv0 of argv0s) {
    await tmux.tmux('new-window', '-d', '-c', odd, `exec bash -c 'exec -a "$0" sleep 1000' '${argv0.replaceAll("'", "'\\''")}'`);
  }
  // A foreground job started from a shell, in another directory than the shell's.
  await tmux.tmux('send-keys', '-t', shell, '-l', "(cd / && exec sleep 1000)\n");
  // A shell that moved.
  const moved = await tmux.newSession('moved');
  await tmux.typeAndWait(moved, `cd '${tmux.dir}'`);
  // A dead pane kept on screen: only tmux knows what to say.
  await tmux.tmux('set-option', '-g', 'remain-on-exit', 'on');
  await tmux.tmux('new-window', '-d', 'exit 3');
  // A program that left the pane's terminal (its own session): tmux answers for it.
  await tmux.tmux('new-window', '-d', 'exec setsid -w sleep 1000');

  // Plain panes beside the odd ones.
  for (let i = 0; i < 8; i++) await tmux.tmux('new-window', '-d', '-t', 'moved:', 'exec cat');
  const panes = argv0s.length + 4 + 8;

  const engine = engineFor(t, tmux);
  // The first listing is tmux's alone; the next ones read /proc, the second and third ahead of tmux's answer.
  await assertSameAsTmux(tmux, engine, panes);
  const read = await assertSameAsTmux(tmux, engine, panes);
  assert.ok(read >= panes - 2, `all but the dead pane and the one outside its terminal are read from /proc (${read} of ${panes})`);
  await assertSameAsTmux(tmux, engine, panes);
  // With /proc out of bounds (a tmux server on another machine), every field comes from tmux.
  await assertSameAsTmux(tmux, engineFor(t, tmux, false), panes);
});

test('windowName follows tmux\'s naming rules', () => {
  const name = (text: string) => windowName(Buffer.from(text, 'utf8'));
  assert.equal(name('/usr/bin/python3'), 'python3');
  assert.equal(name('-bash'), 'bash');
  assert.equal(name('exec vim file'), 'vim');
  assert.equal(name('"/opt/my tool" --flag'), 'my');
  assert.equal(name('node:::'), 'node:::');
  assert.equal(name(''), '');
});

test('a pane read again after its process changed answers for the process it has now (kept /proc descriptors)', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const serverPid = Number((await tmux.tmux('display-message', '-p', '#{pid}')).trim());
  const panePid = async () => Number((await tmux.tmux('display-message', '-p', '-t', pane, '#{pane_pid}')).trim());
  const settled = async (pid: number, command: string) => {
    let read: ReturnType<typeof readForeground>;
    return until(() => `pane to show ${command} (last read ${JSON.stringify(read)})`, () => ((read = readForeground({ pid, serverPid }))?.command === command ? read : undefined), 20_000);
  };
  const first = await panePid();
  await settled(first, (await tmux.tmux('display-message', '-p', '-t', pane, '#{pane_current_command}')).trim());
  // The same process, another program: the kept descriptors read what it is now.
  await tmux.tmux('send-keys', '-t', pane, '-l', `cd '${tmux.dir}' && exec sleep 1000\n`);
  assert.deepEqual(await settled(first, 'sleep'), { command: 'sleep', path: tmux.dir });
  // A new process in the pane: the old pid's descriptors fail and nothing is answered for it.
  await tmux.tmux('respawn-pane', '-k', '-t', pane, '-c', '/', 'exec cat');
  const second = await panePid();
  assert.notEqual(second, first);
  assert.deepEqual(await settled(second, 'cat'), { command: 'cat', path: '/' });
  await until('the ended process to be answered for no more', () => readForeground({ pid: first, serverPid }) === undefined, 20_000);
});
