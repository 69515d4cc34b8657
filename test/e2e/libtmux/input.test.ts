import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { privateTmux, type PrivateTmux } from '../../fixture/tmux.js';
import { startMcp } from '../../fixture/mcp.js';
import { ownSession, sharedMcp } from '../../fixture/shared.js';
import { waiters } from '../../fixture/processes.js';
import { until } from '../../fixture/until.js';

// ---- helpers --------------------------------------------------------------------------------------

async function display(tmux: PrivateTmux, target: string, format: string): Promise<string> {
  return (await tmux.tmux('display-message', '-p', '-t', target, format)).trimEnd();
}

let serial = 0;
const unique = (stem: string) => `${stem}-${process.pid}-${++serial}`;

/**
 * Makes the pane copy what it receives into a file (`cat > file`), so tests can compare what
 * arrived byte for byte. `finish` ends cat with C-d and returns the file once cat has exited.
 */
async function startReader(tmux: PrivateTmux, pane: string, options: { bracketed?: boolean } = {}) {
  const file = join(tmux.dir, `${unique('read')}.out`);
  const done = unique('read-done');
  // Bracketed paste is switched on by the program's output; the marker line shows tmux has read it.
  const enable = options.bracketed ? `printf '\\033[?2004hbracketed-on\\n'; ` : '';
  await tmux.tmux('send-keys', '-t', pane, '-l', `${enable}cat > '${file}'; tmux -S '${tmux.socketPath}' wait-for -S ${done}`);
  await tmux.tmux('send-keys', '-t', pane, 'Enter');
  await until(`cat to run in ${pane}`, async () => (await display(tmux, pane, '#{pane_current_command}')) === 'cat');
  if (options.bracketed)
    await until('bracketed paste on', async () => (await tmux.tmux('capture-pane', '-p', '-t', pane)).split('\n').includes('bracketed-on'));
  return {
    file,
    /** `partialLine`: the text did not end with a newline, so one C-d only hands that line over. */
    async finish(partialLine = false): Promise<string> {
      await tmux.tmux('send-keys', '-t', pane, ...(partialLine ? ['C-d', 'C-d'] : ['C-d']));
      await tmux.tmux('wait-for', done);
      return readFileSync(file, 'utf8');
    },
  };
}

/**
 * A pane in `session` whose program has exited but which stays, dead, because its remain-on-exit is
 * on (set on the pane alone before the program goes on to exit, so no other pane keeps its corpse).
 */
async function deadPane(tmux: PrivateTmux, session: string): Promise<string> {
  const go = unique('exit');
  const pane = (
    await tmux.tmux(
      'new-window',
      '-d',
      '-P',
      '-F',
      '#{pane_id}',
      '-t',
      `${session}:`,
      `${tmux.bin} -S '${tmux.socketPath}' wait-for ${go}; exit 3`,
    )
  ).trim();
  await tmux.tmux('set-option', '-p', '-t', pane, 'remain-on-exit', 'on');
  await tmux.tmux('wait-for', '-S', go);
  // The pane-died hook does not fire when the program exits before tmux has set the pane up, so poll.
  await until('the pane to die', async () => (await display(tmux, pane, '#{pane_dead}')) === '1');
  return pane;
}

/**
 * One tmux server and one MCP server for the tests that make ordinary calls (each on a session of its
 * own); tests that need another configuration, close the server or kill tmux start their own.
 */
const server = sharedMcp();

async function setup(t: { after: (fn: () => Promise<void> | void) => void }) {
  const { tmux, mcp } = await server();
  const { pane, session } = await ownSession(t, tmux);
  return { tmux, mcp, pane, session };
}

// ---- send_keys ------------------------------------------------------------------------------------

test('send_keys types text exactly as written: separators, quotes, $HOME, leading dash, tabs, newlines, emoji, CJK', async (t) => {
  const { tmux, mcp, pane } = await setup(t);
  const reader = await startReader(tmux, pane);

  const keys = [
    '-n leading dash;',
    ' $HOME "double" \'single\' \\back\\slash\\ ~ ~/x #{pane_id} #comment {brace} ;; ',
    'tab\there\tand\\there\nsecond line ends with a separator;\n',
    'Enter',
    'C-c',
    '😀 日本語テキスト 한국어 ✓ é',
    ';',
    'last;',
  ];
  const sent = await mcp.ok('send_keys', { paneId: pane, keys, literal: true, enter: true });
  assert.equal(sent.pane, pane);
  assert.match(sent.paneRef, /^tmux1_/);
  assert.deepEqual(sent.keys, [...keys, 'Enter']);
  assert.deepEqual(sent.resolvedPaneIds, [pane]);

  // literal true: "Enter" and "C-c" above were typed as words, not pressed.
  assert.equal(await reader.finish(), keys.join('') + '\n');

  // The pane's ref works as the target too.
  const second = await startReader(tmux, pane);
  await mcp.ok('send_keys', { paneId: sent.paneRef, keys: ['via ref'], literal: true, enter: true });
  assert.equal(await second.finish(), 'via ref\n');
});

test('send_keys with literal false presses key names: C-c interrupts a program; text is never read as a key', async (t) => {
  const { tmux, mcp, pane } = await setup(t);

  await mcp.ok('send_keys', { paneId: pane, keys: ['sleep 100'], enter: true });
  await until('sleep to run', async () => (await display(tmux, pane, '#{pane_current_command}')) === 'sleep');
  const interrupted = await mcp.ok('send_keys', { paneId: pane, keys: ['C-c'], literal: false });
  assert.deepEqual(interrupted.keys, ['C-c']);
  await until('the shell to be back after C-c', async () => (await display(tmux, pane, '#{pane_current_command}')) === 'sh');

  const reader = await startReader(tmux, pane);
  // Refused before anything is typed.
  assert.match(await mcp.fails('send_keys', { paneId: pane, keys: ['M-;'], literal: false }), /send ";" as literal text/);
  assert.match(await mcp.fails('send_keys', { paneId: pane, keys: [''] }), /nothing to send/);
  assert.match(await mcp.fails('send_keys', { paneId: pane, keys: [] }), /nothing to send/);
  assert.match(await mcp.fails('send_keys', { paneId: pane, keys: 'ls' }), /keys/);
  assert.match(await mcp.fails('send_keys', { paneId: 'pane-1', keys: ['x'] }), /paneId must be a pane id/);
  assert.match(await mcp.fails('send_keys', { paneId: '%999', keys: ['x'] }), /no pane %999/);
  assert.match(
    await mcp.fails('send_keys', { paneId: pane, keys: ['\u0001'.repeat(70_000)] }),
    /too large to send and echo back.*paste_text/s,
  );

  // Single characters, named keys and ";" as keys.
  await mcp.ok('send_keys', { paneId: pane, keys: ['a', 'b', 'Space', 'c', ';', 'Tab', 'x', 'enter'], literal: false });
  // enter alone presses Enter.
  await mcp.ok('send_keys', { paneId: pane, keys: ['z'] });
  await mcp.ok('send_keys', { paneId: pane, keys: [], enter: true });
  // Strings that are not key names are typed as text, never read as keys, flags or separators.
  await mcp.ok('send_keys', { paneId: pane, keys: ['Entr', ' -x;', 'Enter'] });
  // literal true types even a key name as its letters.
  await mcp.ok('send_keys', { paneId: pane, keys: ['Enter', 'C-c'], literal: true, enter: true });
  assert.equal(await reader.finish(), 'ab c;\tx\nz\nEntr -x;\nEnterC-c\n');
});

test('send_keys and paste_text refuse a dead pane, a pane in copy mode, and their own pane; nothing is typed', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const dead = await deadPane(tmux, 'test');
  const pid = await display(tmux, pane, '#{pid}');
  const mcp = await startMcp(t, { env: tmux.env });

  // tmux 3.3a records the exit status only when it reaps the program, which may be later or (when
  // the program exited before the pane was set up) never: the status is named when tmux knows it.
  assert.match(
    await mcp.fails('send_keys', { paneId: dead, keys: ['echo hi'], enter: true }),
    /pane %\d+ is dead \(its program exited(?: with status 3)?\); nothing was sent.*respawn_pane/s,
  );
  assert.match(await mcp.fails('paste_text', { paneId: dead, text: 'echo hi' }), /is dead/);
  assert.match(await mcp.fails('send_keys', { paneId: dead, keys: ['x'], force: true }), /is dead/, 'force does not override a dead pane');

  // Copy mode would swallow the keys ("q" would even leave it): refused, and the mode is untouched.
  const reader = await startReader(tmux, pane);
  await tmux.tmux('copy-mode', '-t', pane);
  assert.equal(await display(tmux, pane, '#{pane_in_mode}'), '1');
  assert.match(await mcp.fails('send_keys', { paneId: pane, keys: ['q'] }), /copy mode.*nothing was sent/s);
  assert.match(await mcp.fails('send_keys', { paneId: pane, keys: ['q'], literal: false, force: true }), /copy mode/);
  assert.match(await mcp.fails('paste_text', { paneId: pane, text: 'q' }), /copy mode/);
  assert.equal(await display(tmux, pane, '#{pane_in_mode}'), '1', 'the refused keys never reached copy mode');
  await tmux.tmux('send-keys', '-t', pane, '-X', 'cancel');

  // The pane this server runs in (TMUX_PANE / TMUX point at it) is refused unless force.
  const inside = await startMcp(t, { env: { ...tmux.env, TMUX_PANE: pane, TMUX: `${tmux.socketPath},${pid},0` } });
  assert.match(
    await inside.fails('send_keys', { paneId: pane, keys: ['no'] }),
    /refusing to send keys: %\d+ is the pane this MCP server runs in.*force/s,
  );
  assert.match(await inside.fails('paste_text', { paneId: pane, text: 'no' }), /refusing to paste.*runs in/);
  const batch = await inside.ok('send_keys_batch', { operations: [{ paneId: pane, keys: ['no'] }] });
  assert.equal(batch.completed, 0);
  assert.match(batch.failures[0].reason, /runs in/);
  await inside.ok('send_keys', { paneId: pane, keys: ['forced'], force: true, enter: true });
  await inside.ok('paste_text', { paneId: pane, text: 'pasted', force: true, enter: true });
  assert.equal(await reader.finish(), 'forced\npasted\n', 'only the forced input arrived');
});

test('send_keys reaches every synchronized pane and says so; paste_text reaches only its pane', async (t) => {
  const { tmux, mcp, pane: first } = await setup(t);
  const second = (await tmux.tmux('split-window', '-d', '-P', '-F', '#{pane_id}', '-t', first, '-e', 'PS1=$ ', 'sh')).trim();
  const a = await startReader(tmux, first);
  const b = await startReader(tmux, second);
  await tmux.tmux('set-option', '-w', '-t', first, 'synchronize-panes', 'on');

  const sent = await mcp.ok('send_keys', { paneId: first, keys: ['both;'], enter: true });
  assert.deepEqual(sent.resolvedPaneIds, [first, second]);
  const batch = await mcp.ok('send_keys_batch', { operations: [{ paneId: second, keys: ['again'], enter: true }] });
  assert.deepEqual(batch.targets, [{ index: 0, resolvedPaneIds: [second, first] }]);
  await mcp.ok('paste_text', { paneId: first, text: 'only first\n' });

  await tmux.tmux('set-option', '-w', '-t', first, 'synchronize-panes', 'off');
  assert.equal(await a.finish(), 'both;\nagain\nonly first\n');
  assert.equal(await b.finish(), 'both;\nagain\n');
});

// ---- paste_text -----------------------------------------------------------------------------------

test("paste_text pastes exactly through a private buffer and leaves the user's buffers as they were", async (t) => {
  const { tmux, mcp, pane } = await setup(t);
  await tmux.tmux('set-buffer', '-b', 'mine', "the user's own buffer");
  await tmux.tmux('set-buffer', 'unnamed one');
  const buffers = () => tmux.tmux('list-buffers', '-F', '#{buffer_name}=#{buffer_sample}');
  const before = await buffers();

  const reader = await startReader(tmux, pane);
  const text = 'first line;\n-x $HOME "double" \'single\' \\back\\slash #{pane_id} ~\n\ttabbed\t\n😀 日本語 한국어\nlast line;';
  const pasted = await mcp.ok('paste_text', { paneId: pane, text, enter: true });
  assert.deepEqual(pasted, { paneRef: pasted.paneRef, pane, characters: [...text].length });
  assert.match(pasted.paneRef, /^tmux1_/);
  const empty = await mcp.ok('paste_text', { paneId: pane, text: '' });
  assert.equal(empty.characters, 0);
  assert.equal(await reader.finish(), text + '\n');
  assert.equal(await buffers(), before, 'list-buffers is unchanged');

  assert.match(await mcp.fails('paste_text', { paneId: pane, text: 'a\u001b[201~rm -rf x\n' }), /bracketed-paste marker/);
  assert.match(await mcp.fails('paste_text', { paneId: '%999', text: 'x' }), /no pane %999/);
  assert.equal(await buffers(), before, 'failed pastes leave no buffer behind');
});

test('paste_text brackets the paste when the program asked for bracketed paste', async (t) => {
  const { tmux, mcp, pane } = await setup(t);
  const reader = await startReader(tmux, pane, { bracketed: true });
  await mcp.ok('paste_text', { paneId: pane, text: 'echo one\necho two' });
  await mcp.ok('send_keys', { paneId: pane, keys: [''], enter: true });
  assert.equal(await reader.finish(), '\u001b[200~echo one\necho two\u001b[201~\n');
});

// ---- send_keys_batch ------------------------------------------------------------------------------

test('send_keys_batch checks every operation before sending any; stop sends nothing, continue sends the rest', async (t) => {
  const { tmux, mcp, pane: a, session } = await setup(t);
  const b = (await tmux.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', `${session}:`, '-e', 'PS1=$ ', 'sh')).trim();
  const dead = await deadPane(tmux, session);
  const readA = await startReader(tmux, a);
  const readB = await startReader(tmux, b);

  const operations = [
    { paneId: a, keys: ['one;'], enter: true },
    { paneId: dead, keys: ['lost'], enter: true },
    { paneId: b, keys: ['two'], enter: true },
    { paneId: b, keys: ['M-;'], literal: false },
  ];
  const stopped = await mcp.ok('send_keys_batch', { operations });
  assert.equal(stopped.completed, 0);
  assert.deepEqual(stopped.targets, []);
  assert.deepEqual(
    stopped.failures.map((f: { index: number }) => f.index),
    [1, 3],
  );
  assert.match(stopped.failures[0].reason, /is dead/);
  assert.match(stopped.failures[1].reason, /operations\[3\]\.keys\[0\] "M-;": a modifier with ";" cannot be sent/);

  const continued = await mcp.ok('send_keys_batch', { operations, onError: 'continue' });
  assert.equal(continued.completed, 2);
  assert.deepEqual(continued.targets, [
    { index: 0, resolvedPaneIds: [a] },
    { index: 2, resolvedPaneIds: [b] },
  ]);
  assert.deepEqual(
    continued.failures.map((f: { index: number }) => f.index),
    [1, 3],
  );

  const all = await mcp.ok('send_keys_batch', {
    operations: [
      { paneId: a, keys: ['x', 'y'], literal: false },
      { paneId: b, keys: ['-dash'] },
      { paneId: a, keys: [], enter: true },
      { paneId: b, keys: ['Enter'], literal: false },
    ],
    onError: 'stop',
  });
  assert.deepEqual(all, {
    completed: 4,
    failures: [],
    targets: [0, 1, 2, 3].map((index) => ({ index, resolvedPaneIds: [index % 2 ? b : a] })),
  });
  assert.deepEqual(await mcp.ok('send_keys_batch', { operations: [] }), { completed: 0, failures: [], targets: [] });

  const tooMany = Array.from({ length: 65 }, () => ({ paneId: a, keys: ['x'] }));
  assert.match(await mcp.fails('send_keys_batch', { operations: tooMany }), /operations.*64/);
  assert.match(await mcp.fails('send_keys_batch', { operations: [{ paneId: a }] }), /keys/);
  assert.match(await mcp.fails('send_keys_batch', { operations: [{ paneId: a, keys: ['x'] }], onError: 'retry' }), /onError/);

  assert.equal(await readA.finish(), 'one;\nxy\n');
  assert.equal(await readB.finish(), 'two\n-dash\n');
});

// ---- channels -------------------------------------------------------------------------------------

test('wait_for_channel is released by signal_channel, by a shell in a pane, and by a signal sent before it', async (t) => {
  const { mcp, pane } = await setup(t);

  // Released by another call while it waits.
  const channel = unique('released');
  const waiting = mcp.ok('wait_for_channel', { channel, timeoutMs: 20_000 });
  await until('the wait-for process', () => waiters(channel).length === 1);
  assert.deepEqual(await mcp.ok('signal_channel', { channel }), { channel, signalled: true });
  const released = await waiting;
  assert.equal(released.channel, channel);
  assert.equal(released.released, true);
  assert.equal(released.effectiveTimeout, 20);
  assert.ok(released.seconds >= 0 && released.seconds < 20, String(released.seconds));
  assert.deepEqual(waiters(channel), []);

  // Released by a command in a pane, the way an agent composes it.
  const done = unique('tests_done');
  await mcp.ok('send_keys', { paneId: pane, keys: [`sleep 0.3; tmux wait-for -S ${done}`], enter: true });
  const byShell = await mcp.ok('wait_for_channel', { channel: done });
  assert.equal(byShell.released, true);
  assert.equal(byShell.effectiveTimeout, 30, 'the default is 30 s');

  // A signal with nobody waiting is remembered once.
  const early = unique('early');
  await mcp.ok('signal_channel', { channel: early });
  const latched = await mcp.ok('wait_for_channel', { channel: early, timeoutMs: 5000 });
  assert.equal(latched.released, true);
  assert.ok(latched.seconds < 5);
  assert.equal((await mcp.ok('wait_for_channel', { channel: early, timeoutMs: 200 })).released, false, 'only once');
});

test('wait_for_channel times out cleanly, honours the ceiling, refuses bad names, and leaves no tmux process behind', async (t) => {
  const { tmux, mcp } = await server();

  const channel = unique('never');
  const timedOut = await mcp.ok('wait_for_channel', { channel, timeoutMs: 300 });
  assert.deepEqual({ ...timedOut, seconds: 0 }, { channel, released: false, effectiveTimeout: 0.3, seconds: 0 });
  assert.ok(timedOut.seconds >= 0.29, `it waited out its timeout: ${timedOut.seconds}`);
  assert.deepEqual(waiters(channel), [], 'the timed-out tmux wait-for process is gone');

  const capped = await startMcp(t, { env: { ...tmux.env, LIBTMUX_MCP_WAIT_MAX_SECONDS: '1' } });
  const ceiling = await capped.ok('wait_for_channel', { channel, timeoutMs: 600_000 });
  assert.equal(ceiling.released, false);
  assert.equal(ceiling.effectiveTimeout, 1);
  assert.ok(ceiling.seconds >= 0.99, `it waited out the ceiling: ${ceiling.seconds}`);

  for (const bad of ['-S', 'a b', 'a;b', 'semi;', '$HOME', 'x\ny', 'é']) {
    assert.match(await mcp.fails('wait_for_channel', { channel: bad, timeoutMs: 100 }), /not a valid channel name/, bad);
    assert.match(await mcp.fails('signal_channel', { channel: bad }), /not a valid channel name/, bad);
  }
  assert.match(await mcp.fails('wait_for_channel', { channel: '' }), /must not be empty/);
  assert.match(await mcp.fails('wait_for_channel', { channel: 'x'.repeat(1025) }), /channel/);
  assert.match(await mcp.fails('wait_for_channel', { channel: 'ok', timeoutMs: 99 }), /timeoutMs/);
  assert.match(await mcp.fails('wait_for_channel', { channel: 'ok', timeoutMs: 600_001 }), /timeoutMs/);
  assert.equal((await mcp.ok('wait_for_channel', { channel: 'a.b:c_d-e', timeoutMs: 100 })).released, false);
});

test('cancelling wait_for_channel kills its tmux process and answers at once', async () => {
  const { mcp } = await server();
  const channel = unique('cancel');
  const controller = new AbortController();
  const call = mcp.client.callTool({ name: 'wait_for_channel', arguments: { channel, timeoutMs: 60_000 } }, { signal: controller.signal });
  const [pid] = await until('the wait-for process', () => {
    const found = waiters(channel);
    return found.length === 1 && found;
  });
  controller.abort();
  await assert.rejects(call);
  await until('the cancelled wait-for process to exit', () => waiters(channel).length === 0, 3000);
  // Gone from /proc's command lines means exited; reaping (the zombie disappearing) follows.
  await until(
    'the tmux client to be reaped',
    () => {
      try {
        process.kill(pid!, 0);
        return false;
      } catch {
        return true;
      }
    },
    3000,
  );
  // The server carries on.
  assert.equal((await mcp.ok('wait_for_channel', { channel, timeoutMs: 100 })).released, false);
});

test('closing the MCP server during wait_for_channel leaves no tmux process behind', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env });
  const channel = unique('orphan');
  const waiting = mcp.call('wait_for_channel', { channel, timeoutMs: 60_000 }).catch((error: Error) => error);
  await until('the wait-for process', () => waiters(channel).length === 1);
  await mcp.close();
  // The client gave up the call, or the server (its input ended) ended the wait at once and said why.
  const outcome = await waiting;
  assert.ok(outcome instanceof Error || JSON.stringify(outcome).includes('shutting down'), JSON.stringify(outcome));
  await until('the wait-for process to exit with the server', () => waiters(channel).length === 0, 5000);
});

test('wait_for_channel reports a tmux server that went away during the wait, not a release', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env });
  const channel = unique('vanish');
  const waiting = mcp.call('wait_for_channel', { channel, timeoutMs: 20_000 });
  await until('the wait-for process', () => waiters(channel).length === 1);
  await tmux.tmux('kill-server');
  const result = await waiting;
  assert.equal(result.isError, true);
  assert.match(result.content.map((c) => c.text).join(''), /tmux server exited, not because the channel was signalled/);
  assert.match(await mcp.fails('wait_for_channel', { channel }), /no tmux server is running/);
  assert.match(await mcp.fails('signal_channel', { channel }), /no tmux server is running/);
});
