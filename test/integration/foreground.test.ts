/**
 * A pane's foreground command and directory, as listings and lookups show them, are tmux's own
 * #{pane_current_command} and #{pane_current_path}, pane by pane: for programs whose first argument
 * puts tmux's naming rules to work, a foreground job, an odd directory (a newline, a tab, a control
 * character, a backslash, non-ASCII, a format: tmux 3.4+ prints some of them escaped), a dead pane and a pane that left its terminal; and a pane whose program or directory
 * changed shows the new one in the next listing.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Engine } from '../../src/core/engine.js';
import { TmuxServer } from '../../src/tmux/server.js';
import { privateTmux, scrubbedEnv, TMUX_BIN, type PrivateTmux } from '../fixture/tmux.js';
import { until } from '../fixture/until.js';
import { getPane, listPanes } from '../../src/core/index.js';

function engineFor(t: { after: (fn: () => Promise<void>) => void }, tmux: PrivateTmux) {
  const server = new TmuxServer({ bin: TMUX_BIN, socketPath: tmux.socketPath, commandTimeoutMs: 5000, env: scrubbedEnv() });
  t.after(() => server.close());
  return new Engine(server, { waitMaxMs: 10_000 });
}

/**
 * tmux's own answer for one pane, one field per command so no separator is needed: the value less
 * the newline tmux ends it with (as printed: tmux 3.4+ escapes control characters but a tab or a newline).
 */
async function tmuxSays(tmux: PrivateTmux, paneId: string): Promise<[string, string]> {
  const field = async (name: string) => (await tmux.tmux('display-message', '-p', '-t', paneId, `#{${name}}`)).replace(/\n$/, '');
  return [await field('pane_current_command'), await field('pane_current_path')];
}

/** `text` as tmux 3.4 and newer print it: a control character (but a tab or a newline) as octal. */
function escaped(text: string): string {
  return text.replace(/[\u0001-\u0008\u000b-\u001f\u007f]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
}

/** Every pane's [command, path] as tmux says it. */
async function tmuxView(tmux: PrivateTmux): Promise<Map<string, [string, string]>> {
  const ids = (await tmux.tmux('list-panes', '-a', '-F', '#{pane_id}')).split('\n').filter(Boolean);
  return new Map(await Promise.all(ids.map(async (id) => [id, await tmuxSays(tmux, id)] as const)));
}

test("foreground command and directory equal tmux's own, pane by pane, in listings and lookups", async (t) => {
  const tmux = privateTmux(t);
  const shell = await tmux.start();
  const odd = join(tmux.dir, 'dir with space\nnewline\ttab \u0001 back\\slash \u00e9\u6f22 #{pane_id}');
  mkdirSync(odd);
  // First arguments that exercise tmux's naming: a path with spaces and trailing dashes, a login
  // name, a leading "exec ", quotes, a trailing non-ASCII letter, a bare "/".
  const argv0s = [
    '/some/dir/my prog--',
    '-login',
    'exec  tool x',
    '"quoted name" rest',
    'caf\u00e9',
    '/',
    '/usr/bin/',
    'a-very-long-program-name-beyond-comm',
  ];
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  // Into the odd directory by cd: tmux would read `-c` as a format.
  for (const argv0 of argv0s)
    await tmux.tmux('new-window', '-d', `exec bash -c 'cd "$1" && exec -a "$0" sleep 1000' ${quote(argv0)} ${quote(odd)}`);
  // A foreground job started from a shell, in another directory than the shell's.
  await tmux.tmux('send-keys', '-t', shell, '-l', '(cd / && exec sleep 1000)\n');
  // A shell that moved.
  const moved = await tmux.newSession('moved');
  await tmux.typeAndWait(moved, `cd '${tmux.dir}'`);
  // A dead pane kept on screen.
  await tmux.tmux('set-option', '-g', 'remain-on-exit', 'on');
  await tmux.tmux('new-window', '-d', 'exit 3');
  // A program that left the pane's terminal (its own session).
  await tmux.tmux('new-window', '-d', 'exec setsid -w sleep 1000');
  const panes = argv0s.length + 4;

  const engine = engineFor(t, tmux);
  // Read until tmux's view holds still around the engine's listing (a shell about to exec changes it).
  const { listed, view } = await until(
    'tmux to show the panes settled',
    async () => {
      const before = await tmuxView(tmux);
      const listed = await listPanes(engine);
      const after = await tmuxView(tmux);
      const settled =
        before.size === panes && JSON.stringify([...before]) === JSON.stringify([...after]) && before.get(shell)?.[0] === 'sleep';
      return settled ? { listed, view: before } : undefined;
    },
    20_000,
  );
  assert.equal(listed.length, panes);
  // The odd directory as it is: tmux 3.4+ prints its control character escaped, which a listing reads back.
  const expected = (id: string) => view.get(id)!.map((value, i) => (i === 1 && (value === odd || value === escaped(odd)) ? odd : value));
  for (const pane of listed) {
    assert.deepEqual([pane.currentCommand, pane.currentPath], expected(pane.id), `listed: pane ${pane.id}`);
    const one = await getPane(engine, pane.id);
    assert.deepEqual([one.currentCommand, one.currentPath], expected(pane.id), `looked up: pane ${pane.id}`);
  }
  assert.deepEqual(view.get(shell), ['sleep', '/'], 'the foreground job, in its own directory');
  assert.equal(view.get(moved)?.[1], tmux.dir, 'the shell that moved');
  assert.equal(listed.filter((pane) => pane.currentPath === odd).length, argv0s.length, 'the odd directory, as it is');
});

test('a pane whose program or directory changed shows the new one in the next listing', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const engine = engineFor(t, tmux);
  const listedNow = async () => {
    const row = (await listPanes(engine)).find((p) => p.id === pane)!;
    return [row.currentCommand, row.currentPath];
  };
  assert.deepEqual(await listedNow(), await tmuxSays(tmux, pane));
  // The same process, another program and directory.
  await tmux.tmux('send-keys', '-t', pane, '-l', `cd '${tmux.dir}' && exec sleep 1000\n`);
  await until('tmux to show sleep', async () => (await tmuxSays(tmux, pane))[0] === 'sleep', 20_000);
  assert.deepEqual(await listedNow(), ['sleep', tmux.dir]);
  // A new process in the pane.
  await tmux.tmux('respawn-pane', '-k', '-t', pane, '-c', '/', 'exec cat');
  await until('tmux to show cat', async () => (await tmuxSays(tmux, pane))[0] === 'cat', 20_000);
  assert.deepEqual(await listedNow(), ['cat', '/']);
});
