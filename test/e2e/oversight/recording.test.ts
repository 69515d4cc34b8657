/**
 * Pane recordings (`--record DIR`): every pane the server acts on gets an asciicast
 * v2 file that real `asciinema` replays to the same screen the pane shows; the file is bounded, new
 * (mode 0600, never over another), safely named, and follows resizes; panes on hosts are recorded
 * too. Every profile, driven through the SDK client against private tmux servers.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { startMcp } from '../../fixture/mcp.js';
import { privateTmux, scrubbedEnv } from '../../fixture/tmux.js';
import { startPython } from '../../fixture/python.js';
import { startJulia } from '../../fixture/julia.js';
import { CLI } from '../../fixture/mcp.js';
import { hostArgs, hostServers, nothingLeft } from '../../fixture/hosts.js';
import { until } from '../../fixture/until.js';
import { startRaw } from '../../fixture/raw-stdio.js';

type T = Parameters<typeof privateTmux>[0] & { after: (fn: () => Promise<void> | void) => void };

// A fresh schema of asciicast v2 (docs.asciinema.org/manual/asciicast/v2), not the server's code.
const ajv = new Ajv({ strict: true });
const validHeader = ajv.compile({
  type: 'object',
  required: ['version', 'width', 'height', 'timestamp'],
  properties: {
    version: { const: 2 },
    width: { type: 'integer', minimum: 1 },
    height: { type: 'integer', minimum: 1 },
    timestamp: { type: 'integer', minimum: 1_600_000_000 },
    title: { type: 'string' },
    env: { type: 'object', additionalProperties: { type: 'string' } },
  },
});
const validEvent = ajv.compile({
  type: 'array',
  minItems: 3,
  maxItems: 3,
  items: [{ type: 'number', minimum: 0 }, { enum: ['o', 'r', 'm', 'i'] }, { type: 'string' }],
  additionalItems: false,
});

interface Cast {
  readonly path: string;
  readonly header: { width: number; height: number; timestamp: number; title?: string };
  readonly events: Array<[number, string, string]>;
}

/** Parses and checks a .cast file: a valid header line, then valid events in time order. */
function readCast(path: string): Cast {
  const lines = readFileSync(path, 'utf8').split('\n');
  assert.equal(lines.pop(), '', 'every line ends with a newline');
  const header = JSON.parse(lines[0]!);
  assert.ok(validHeader(header), `header: ${ajv.errorsText(validHeader.errors)} in ${lines[0]}`);
  const events = lines.slice(1).map((line) => JSON.parse(line) as [number, string, string]);
  for (const event of events) assert.ok(validEvent(event), `event: ${ajv.errorsText(validEvent.errors)} in ${JSON.stringify(event)}`);
  events.forEach((event, i) => assert.ok(i === 0 || event[0] >= events[i - 1]![0], 'times never go back'));
  assert.ok(events.length > 0 && events[0]![1] === 'o', 'the first event paints the screen');
  return { path, header, events };
}

function recordDir(t: T): string {
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-rec-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The .cast files in `dir`, by name. */
function casts(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.cast'))
    .sort();
}

/** The terminal size after the last resize event (the header's size without one). */
function finalSize(cast: Cast): { width: number; height: number } {
  const resize = cast.events.filter((e) => e[1] === 'r').at(-1);
  if (!resize) return cast.header;
  const [width, height] = resize[2].split('x').map(Number);
  return { width: width!, height: height! };
}

/**
 * Replays `cast` with real `asciinema play` in a pane of a private tmux of the recorded size and
 * answers that pane's screen once the player is done (it then idles, printing nothing more); with
 * `read`, what that reads of the pane (`replay`) instead.
 */
async function replay(t: T, cast: Cast): Promise<string>;
async function replay<R>(t: T, cast: Cast, read: (player: ReturnType<typeof privateTmux>) => Promise<R>): Promise<R>;
async function replay(t: T, cast: Cast, read?: (player: ReturnType<typeof privateTmux>) => Promise<unknown>): Promise<unknown> {
  const player = privateTmux(t);
  const { width, height } = finalSize(cast);
  const channel = `played-${Math.random().toString(36).slice(2)}`;
  const script = join(player.dir, 'play.sh');
  writeFileSync(
    script,
    `asciinema play -s 100 -i 0.01 '${cast.path}'\ntmux -S '${player.socketPath}' wait-for -S ${channel}\nexec sleep 600\n`,
  );
  const env = scrubbedEnv({ TERM: 'xterm-256color' });
  execFileSync(
    'tmux',
    [
      '-S',
      player.socketPath,
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      'replay',
      '-x',
      String(width),
      '-y',
      String(height),
      `sh '${script}'`,
    ],
    { env },
  );
  await player.tmux('wait-for', channel);
  return read ? read(player) : player.tmux('capture-pane', '-p', '-t', 'replay');
}

/**
 * Each row of a pane as `capture-pane -e` reads it alone: a one-row capture states every attribute
 * from the defaults, so two panes that show the same cells give the same rows on any tmux version.
 */
async function cellsByRow(tmux: ReturnType<typeof privateTmux>, target: string, height: number): Promise<string[]> {
  const rows: string[] = [];
  for (let y = 0; y < height; y++) rows.push(await tmux.tmux('capture-pane', '-p', '-e', '-t', target, '-S', String(y), '-E', String(y)));
  return rows;
}

/** Waits until the server has flushed its recordings: it exits once stdin closes. */
async function closeServer(mcp: { close(): Promise<void>; pid(): number | null }): Promise<void> {
  const pid = mcp.pid();
  await mcp.close();
  if (pid !== null) await until('the server to exit once stdin closes', () => !alive(pid), 15_000);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('libtmux: a command run in a pane is recorded, and asciinema replays the file to the screen the pane shows', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'work', width: 80, height: 20 });
  // Something on screen before the server touches the pane: the first event must paint it.
  await tmux.typeAndWait(pane, 'printf "\\033[1;31mbefore\\033[0m the recording\\n"');
  const dir = recordDir(t);
  const mcp = await startMcp(t, { env: tmux.env, args: ['--record', dir] });
  const ran = await mcp.ok('run_shell_command', {
    paneId: pane,
    command: 'seq 1 30; printf "\\033[32mgreen\\033[0m done\\n"',
    timeoutMs: 20_000,
  });
  assert.equal(ran.exitStatus, 0);
  await mcp.ok('send_keys', { paneId: pane, keys: ['echo typed-$((40+2))'], literal: true, enter: true });
  await mcp.ok('wait_for_text', { paneId: pane, patterns: ['typed-42'], timeoutMs: 10_000 });
  const screen = await tmux.tmux('capture-pane', '-p', '-t', pane);
  // No client of its own: the command client and the session's one output client, which the run and the wait use too.
  assert.equal((await tmux.tmux('list-clients', '-F', '#{client_control_mode}')).trim(), '1\n1');
  await closeServer(mcp);

  const files = casts(dir);
  assert.equal(files.length, 1, `one file for the one pane: ${files}`);
  assert.match(files[0]!, /^work-p0-\d{8}T\d{6}Z\.cast$/);
  assert.equal(statSync(join(dir, files[0]!)).mode & 0o777, 0o600);
  const cast = readCast(join(dir, files[0]!));
  assert.deepEqual([cast.header.width, cast.header.height], [80, 20]);
  assert.match(cast.events[0]![2], /before/, 'the first event paints what the pane already showed');
  const output = cast.events
    .filter((e) => e[1] === 'o')
    .map((e) => e[2])
    .join('');
  assert.match(output, /30\r\n/, "the command's output is recorded");
  assert.match(output, /typed-42/);
  assert.equal(await replay(t, cast), screen, 'the replay ends on the screen the pane shows');
});

test('a pane that already shows colours is painted with them: every row as capture-pane -e reads it, attributes carried across rows', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'colours', width: 60, height: 14 });
  // Colours and attributes that run on over several rows, as programs print them.
  await tmux.typeAndWait(
    pane,
    "printf '\\033[31mRED-1\\nRED-2\\nRED-3\\033[0m\\n\\033[1;44mbold on blue\\nstill\\033[0m plain\\n\\033[7mreversed\\nagain\\033[0m\\n\\033[38;5;208morange\\033[0m\\n'",
  );
  const source = await cellsByRow(tmux, pane, 14);
  assert.ok(
    source.some((row) => row.startsWith('RED-2') || row.includes('31mRED-2')),
    `the pane holds the rows: ${source.join('|')}`,
  );
  const dir = recordDir(t);
  const mcp = await startMcp(t, { env: tmux.env, args: ['--record', dir] });
  // A capture starts the recording: its first event is the paint of the screen as it is.
  await mcp.ok('capture_pane', { paneId: pane });
  await closeServer(mcp);
  const [file] = casts(dir);
  const cast = readCast(join(dir, file!));
  assert.ok(
    cast.events.every((event) => event[1] !== 'o' || event === cast.events[0]),
    'nothing but the paint: the pane printed nothing after',
  );
  assert.deepEqual(await replay(t, cast, (player) => cellsByRow(player, 'replay', 14)), source);
});

test('python: a pane in a session with an odd name is recorded under a safe name; a resize is an "r" event and the replay still ends on the screen', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'first' });
  // tmux keeps "/", spaces, "*", "$" and "%" in session names ("." and ":" it turns into "_").
  const pane = await tmux.newSession('../up/ and %out$*');
  const dir = recordDir(t);
  const mcp = await startPython(t, tmux.env, { TMUX_MCP_RECORD: join(dir, '.') });
  await mcp.ok('send_keys', { pane_id: pane, keys: 'printf "one\\ntwo\\n"' });
  await until('the printed lines', async () => (await mcp.text('capture_pane', { pane_id: pane })).includes('\ntwo'));
  // A resize the agent did not make, in tmux itself: the recording follows it.
  await tmux.tmux('resize-window', '-t', pane, '-x', '70', '-y', '15');
  await mcp.ok('send_keys', { pane_id: pane, keys: 'seq 100 130' });
  await until('the output after the resize', async () => (await mcp.text('capture_pane', { pane_id: pane })).includes('\n130\n'));
  const screen = await tmux.tmux('capture-pane', '-p', '-t', pane);
  await closeServer(mcp);

  const files = casts(dir);
  assert.equal(files.length, 1, `only the pane acted on is recorded: ${files}`);
  assert.equal((await tmux.tmux('display-message', '-p', '-t', pane, '#{session_name}')).trim(), '__/up/ and %out$*');
  assert.match(files[0]!, /^___up__and__out__-p1-\d{8}T\d{6}Z\.cast$/, 'no "/", no leading dot, no odd character');
  const cast = readCast(join(dir, files[0]!));
  assert.equal(cast.header.title, 'tmux pane %1 of session __/up/ and %out$*');
  assert.deepEqual([cast.header.width, cast.header.height], [120, 40]);
  const resizes = cast.events.filter((e) => e[1] === 'r').map((e) => e[2]);
  assert.deepEqual(resizes, ['70x15'], 'the resize is one "r" event');
  assert.equal(await replay(t, cast), screen);
});

test('python: panes the server creates are recorded from their first screen', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const dir = recordDir(t);
  const mcp = await startPython(t, tmux.env, { TMUX_MCP_RECORD: dir });
  const made = await mcp.ok('create_session', { session_name: 'made', x: 60, y: 12 });
  await until('the new session to be recorded', () => casts(dir).length === 1);
  const pane = (await tmux.tmux('list-panes', '-t', made.session_id, '-F', '#{pane_id}')).trim();
  const split = await mcp.ok('split_window', { pane_id: pane });
  await until('the split pane to be recorded', () => casts(dir).length === 2);
  await closeServer(mcp);
  const names = casts(dir);
  assert.ok(
    names.some((name) => name.startsWith(`made-p${pane.slice(1)}-`)),
    names.join(),
  );
  assert.ok(
    names.some((name) => name.startsWith(`made-p${split.pane_id.slice(1)}-`)),
    names.join(),
  );
  for (const name of names) readCast(join(dir, name));
});

test('julia: capture_pane and send_keys record the pane; the replay ends on its screen', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ width: 90, height: 16 });
  const dir = recordDir(t);
  const julia = await startJulia(t, tmux, {
    negotiation: 'legacy',
    args: ['--record', dir, '--tool', 'list_panes', '--tool', 'capture_pane', '--tool', 'send_keys', '--tool', 'wait_for_text'],
  });
  const target = await julia.target(pane);
  await julia.ok('capture_pane', { target });
  await julia.ok('send_keys', { target, keys: ['echo julia-$((6*7))', 'Enter'] });
  await julia.ok('wait_for_text', { target, text: 'julia-42' });
  await until('the shell to print its prompt', async () => (await tmux.tmux('capture-pane', '-p', '-t', pane)).includes('julia-42\n$'));
  const screen = await tmux.tmux('capture-pane', '-p', '-t', pane);
  await closeServer(julia.mcp);
  const files = casts(dir);
  assert.equal(files.length, 1);
  const cast = readCast(join(dir, files[0]!));
  assert.deepEqual([cast.header.width, cast.header.height], [90, 16]);
  assert.match(cast.events.map((e) => e[2]).join(''), /julia-42/);
  assert.equal(await replay(t, cast), screen);
});

test('--record-max-mb: a file that reaches the limit ends with a note and stays within it', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const dir = recordDir(t);
  const mcp = await startMcp(t, { env: tmux.env, args: ['--record', dir, '--record-max-mb', '0.02'] });
  const ran = await mcp.ok('run_shell_command', { paneId: pane, command: 'seq 1 20000 | tail -n 3', timeoutMs: 20_000 });
  assert.equal(ran.exitStatus, 0);
  await mcp.ok('run_shell_command', { paneId: pane, command: 'seq 1 5000 > /dev/null; seq 1 4000', timeoutMs: 20_000 });
  await mcp.ok('run_shell_command', { paneId: pane, command: 'echo after-the-limit', timeoutMs: 20_000 });
  await closeServer(mcp);
  const files = casts(dir);
  assert.equal(files.length, 1, 'no second file for the same pane');
  const path = join(dir, files[0]!);
  assert.ok(statSync(path).size <= 0.02 * 1024 * 1024, `${statSync(path).size} bytes`);
  const cast = readCast(path);
  const last = cast.events.at(-1)!;
  assert.equal(last[1], 'm');
  assert.match(last[2], /size limit of 0\.02 MB/);
  assert.ok(!cast.events.some((e) => e[2].includes('after-the-limit')), 'nothing is written after the note');
});

test('--record: a directory that is missing, not a directory or not writable stops start-up with one line and exit 1', async (t) => {
  const dir = recordDir(t);
  const file = join(dir, 'plain-file');
  writeFileSync(file, '');
  const start = (args: string[], env: NodeJS.ProcessEnv = {}) => {
    try {
      execFileSync(process.execPath, [CLI, ...args], {
        env: scrubbedEnv(env),
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
        timeout: 20_000,
      });
      return { status: 0, stderr: '' };
    } catch (error) {
      const failed = error as { status: number; stderr: string };
      return { status: failed.status, stderr: failed.stderr };
    }
  };
  const missing = start(['--record', join(dir, 'nope')]);
  assert.deepEqual(missing, { status: 1, stderr: `tmux-mcp: --record ${join(dir, 'nope')}: no such directory\n` });
  assert.deepEqual(start([], { TMUX_MCP_RECORD: file }), { status: 1, stderr: `tmux-mcp: --record ${file}: not a directory\n` });
  // /proc refuses new files to everyone, root included.
  const proc = start(['--record', '/proc']);
  assert.equal(proc.status, 1);
  assert.match(proc.stderr, /^tmux-mcp: --record \/proc: not writable \(E[A-Z]+\)\n$/);
  const bad = start(['--record', dir, '--record-max-mb', 'lots']);
  assert.deepEqual(bad, { status: 2, stderr: 'tmux-mcp: --record-max-mb takes a number of MB from 0.01 to 1000000, not "lots"\n' });
  assert.equal(start(['--record-max-mb', '5']).status, 2, '--record-max-mb alone is a usage error');
  assert.deepEqual(readdirSync(dir), ['plain-file'], 'nothing is left in the directory');
});

test('hosts: a pane on a host over ssh is recorded like a local one, and replays to its screen', async (t) => {
  const servers = await hostServers(t);
  const dir = recordDir(t);
  const mcp = await startMcp(t, {
    env: {
      ...servers.local.env,
      TMUX_MCP_SSH_CONFIG: servers.sshd.config,
      LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS: '10',
      TMUX_MCP_HOST_SILENCE_SECONDS: '3',
    },
    args: [...hostArgs(servers), '--record', dir],
  });
  const ran = await mcp.ok('run_shell_command', { paneId: 'a:%0', command: 'echo far-$((6*7))', timeoutMs: 20_000 });
  assert.deepEqual(ran.output, ['far-42']);
  const screen = await servers.a.tmux('capture-pane', '-p', '-t', '%0');
  await closeServer(mcp);
  await nothingLeft(servers);
  const files = casts(dir);
  assert.equal(files.length, 1);
  assert.match(files[0]!, /^a-alpha-p0-\d{8}T\d{6}Z\.cast$/);
  const cast = readCast(join(dir, files[0]!));
  assert.equal(cast.header.title, 'tmux pane %0 of session alpha on host a');
  assert.equal(await replay(t, cast), screen);
});

test('libtmux: a pane showing a full-screen program when recording starts replays to the shell screen it goes back to', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ width: 70, height: 12 });
  await tmux.typeAndWait(pane, 'seq 1 5; echo under-the-pager');
  // less on the alternate screen: the recording's first paint must hold both screens.
  await tmux.tmux('send-keys', '-t', pane, '-l', 'seq 500 560 | less\r');
  await until(
    'less to show',
    async () =>
      (await tmux.tmux('display-message', '-p', '-t', pane, '#{alternate_on}')).trim() === '1' &&
      (await tmux.tmux('capture-pane', '-p', '-t', pane)).includes('510'),
  );
  const dir = recordDir(t);
  const mcp = await startMcp(t, { env: tmux.env, args: ['--record', dir] });
  const shown = await mcp.ok('capture_pane', { paneId: pane });
  assert.match(JSON.stringify(shown), /510/);
  await mcp.ok('send_keys', { paneId: pane, keys: ['q'], literal: true });
  await until('less to quit', async () => (await tmux.tmux('display-message', '-p', '-t', pane, '#{alternate_on}')).trim() === '0');
  await mcp.ok('send_keys', { paneId: pane, keys: ['echo back-$((6*7))'], literal: true, enter: true });
  await mcp.ok('wait_for_text', { paneId: pane, patterns: ['back-42'], timeoutMs: 10_000 });
  await until('the prompt', async () => (await tmux.tmux('capture-pane', '-p', '-t', pane)).includes('back-42\n$'));
  const screen = await tmux.tmux('capture-pane', '-p', '-t', pane);
  assert.match(screen, /under-the-pager/);
  await closeServer(mcp);
  const files = casts(dir);
  assert.equal(files.length, 1);
  const cast = readCast(join(dir, files[0]!));
  assert.match(
    cast.events[0]![2],
    /under-the-pager[\s\S]*\x1b\[\?1049h[\s\S]*510/,
    'the normal screen, then the pager on the alternate one',
  );
  assert.equal(await replay(t, cast), screen);
});

test('libtmux: killing one recorded pane and respawning another leave tmux running and both files valid', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const dir = recordDir(t);
  const mcp = await startMcp(t, { env: { ...tmux.env, LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown' }, args: ['--record', dir] });
  const split = await mcp.ok('split_window', { paneId: pane });
  await mcp.ok('send_keys', { paneId: pane, keys: ['echo one'], literal: true, enter: true });
  await until('both panes recorded', () => casts(dir).length === 2);
  // tmux 3.3 has crashed respawning a pane under a client that receives its output: not here.
  const respawned = await mcp.call('respawn_pane', { paneId: pane, killFirst: true });
  assert.ok(!respawned.isError, JSON.stringify(respawned.content));
  await mcp.ok('kill_pane', { paneId: split.id });
  await mcp.ok('run_shell_command', { paneId: pane, command: 'echo alive-$((6*7))', timeoutMs: 20_000 });
  assert.match(await tmux.tmux('list-sessions'), /test/);
  await closeServer(mcp);
  for (const name of casts(dir)) readCast(join(dir, name));
});

test('libtmux: a recording that starts while the pane is printing loses and doubles nothing at the seam', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ width: 60, height: 10 });
  const dir = recordDir(t);
  const mcp = await startMcp(t, { env: tmux.env, args: ['--record', dir] });
  const channel = `printed-${Math.random().toString(36).slice(2)}`;
  await tmux.tmux(
    'send-keys',
    '-t',
    pane,
    '-l',
    `i=0; while [ $i -lt 4000 ]; do i=$((i+1)); echo "row $i of the flood"; [ $((i % 40)) -eq 0 ] && sleep 0.01; done; tmux -S '${tmux.socketPath}' wait-for -S ${channel}\r`,
  );
  await until('the flood to begin', async () => (await tmux.tmux('capture-pane', '-p', '-t', pane)).includes('of the flood'));
  await mcp.ok('capture_pane', { paneId: pane }); // the recording starts mid-flood
  await tmux.tmux('wait-for', channel);
  await until('the prompt', async () => (await tmux.tmux('capture-pane', '-p', '-t', pane)).trimEnd().endsWith('$'));
  const screen = await tmux.tmux('capture-pane', '-p', '-t', pane);
  assert.match(screen, /row 4000 of the flood/);
  await closeServer(mcp);
  const cast = readCast(join(dir, casts(dir)[0]!));
  const numbers = (text: string) => [...text.matchAll(/row (\d+) of/g)].map((m) => Number(m[1]));
  const painted = numbers(cast.events[0]![2]);
  const rows = [
    ...painted.slice(-1),
    ...numbers(
      cast.events
        .slice(1)
        .map((e) => e[2])
        .join(''),
    ),
  ];
  assert.ok(
    painted.length > 0 && rows.length > 1 && rows.at(-1) === 4000,
    `the paint ends mid-flood (${painted.at(-1)}) and the output after it is recorded (${rows.length} rows)`,
  );
  rows.forEach((n, i) => assert.ok(i === 0 || n === rows[i - 1]! + 1, `row ${n} follows row ${rows[i - 1]} with nothing lost or doubled`));
  assert.equal(await replay(t, cast), screen);
});

test('stdio: when stdin closes, the server writes out the last events and exits with 0', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const dir = recordDir(t);
  const raw = startRaw(t, tmux.env, ['--record', dir]);
  await raw.initialize();
  const call = async (id: number, name: string, args: Record<string, unknown>) => {
    raw.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const answer = await raw.answer(id);
    assert.equal(answer.result?.isError, undefined, JSON.stringify(answer));
  };
  await call(1, 'send_keys', { paneId: pane, keys: ['echo flushed-$((6*7))'], literal: true, enter: true });
  await call(2, 'wait_for_text', { paneId: pane, patterns: ['flushed-42'], timeoutMs: 10_000 });
  // At once: the last output is still gathered in memory (it is written a few times a second).
  raw.child.stdin.end();
  assert.equal(await raw.exited, 0);
  const cast = readCast(join(dir, casts(dir)[0]!));
  assert.match(
    cast.events
      .filter((e) => e[1] === 'o')
      .map((e) => e[2])
      .join(''),
    /\r\nflushed-42\r\n/,
  );
});

test('libtmux: a recorded pane moved to another session is followed there, in the same file', async (t) => {
  const tmux = privateTmux(t);
  const first = await tmux.start({ session: 'one', width: 80, height: 20 });
  const moving = (await tmux.tmux('split-window', '-d', '-P', '-F', '#{pane_id}', '-t', first, 'sh')).trim();
  await tmux.newSession('two');
  const dir = recordDir(t);
  const mcp = await startMcp(t, { env: tmux.env, args: ['--record', dir] });
  await mcp.ok('send_keys', { paneId: moving, keys: ['echo before-the-$((1+1))'], literal: true, enter: true });
  await mcp.ok('wait_for_text', { paneId: moving, patterns: ['before-the-2'], timeoutMs: 10_000 });
  // Moved by a person, in tmux itself: the server notices it left its window and follows it.
  await tmux.tmux('join-pane', '-d', '-s', moving, '-t', 'two:');
  await until(
    'the moved pane to be in session two',
    async () => (await tmux.tmux('display-message', '-p', '-t', moving, '#{session_name}')).trim() === 'two',
  );
  await tmux.tmux('send-keys', '-t', moving, '-l', 'echo after-the-$((6*7))\r');
  await until('the output in the moved pane', async () =>
    (await tmux.tmux('capture-pane', '-p', '-t', moving)).includes('after-the-42\n$'),
  );
  await mcp.ok('capture_pane', { paneId: moving });
  const screen = await tmux.tmux('capture-pane', '-p', '-t', moving);
  await closeServer(mcp);
  const files = casts(dir);
  assert.equal(files.length, 1, files.join());
  assert.match(files[0]!, /^one-p1-/, 'named for where the recording began');
  const cast = readCast(join(dir, files[0]!));
  assert.match(cast.events.map((e) => e[2]).join(''), /after-the-42/);
  assert.equal(await replay(t, cast), screen);
});
