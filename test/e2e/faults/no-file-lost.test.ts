/**
 * Nothing is lost: no input to any tool or flag of any profile removes or overwrites a file that is
 * not a tmux socket or a path the caller named for writing (pipe_pane's output_path). Sentinel
 * files are planted in a temp dir and in tmux's socket directory; every string argument (and every
 * list of strings) of every tool, and every flag and variable that takes a path or a socket name,
 * is aimed at them; afterwards each keeps its content, its mode and its kind.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, startMcp, type McpSession } from '../../fixture/mcp.js';
import { privateTmux, scrubbedEnv, socketTmpdir, type PrivateTmux } from '../../fixture/tmux.js';

type Schema = { [key: string]: any };

const JULIA_TOOLS = [
  'list_panes',
  'capture_pane',
  'send_keys',
  'paste_text',
  'resize_pane',
  'kill_pane',
  'run_operations',
  'create_session',
  'teardown_session',
  'wait_for_text',
  'send_keys_and_wait',
];
const PROFILE_ARGS: Record<string, string[]> = {
  libtmux: [],
  python: ['--profile', 'python'],
  julia: ['--profile', 'julia', ...JULIA_TOOLS.flatMap((tool) => ['--tool', tool]), '--allow-create', '--timeout', '1'],
};

interface Sentinels {
  readonly dir: string;
  /** An ordinary file with content. */
  readonly file: string;
  /** The same, in tmux's socket directory, where `-L victim` would put a socket. */
  readonly named: string;
  /** A lock file beside a socket path that does not exist yet (tmux unlinks PATH.lock). */
  readonly lockOf: string;
  readonly socketTmpdir: string;
  /** Marks a socket name there whose tmux server (if a run started one) is killed when the test ends. */
  dispose(name: string): void;
  intact(): void;
}

function plant(t: Parameters<typeof socketTmpdir>[0]): Sentinels {
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-sentinels-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sockets = socketTmpdir(t);
  const file = join(dir, 'precious.txt');
  const named = join(sockets.socketDir, 'victim');
  const lockOf = join(dir, 'fresh.sock');
  const files = [file, named, `${lockOf}.lock`];
  for (const path of files) writeFileSync(path, `keep ${path}\n`, { mode: 0o640 });
  return {
    dir,
    file,
    named,
    lockOf,
    socketTmpdir: sockets.tmpdir,
    dispose: (name) => void sockets.server(name),
    intact() {
      for (const path of files) {
        const stats = statSync(path);
        assert.ok(stats.isFile(), `${path} is still an ordinary file`);
        assert.equal(readFileSync(path, 'utf8'), `keep ${path}\n`, `${path} keeps its content`);
        assert.equal(stats.mode & 0o777, 0o640, `${path} keeps its mode`);
      }
    },
  };
}

/** Valid-looking values for the fields a call needs, by name, so the aimed field is the one that counts. */
function baseValue(name: string, schema: Schema, live: { pane: string; window: string; session: string; target?: object }): unknown {
  if (name === 'target' && live.target) return live.target;
  if (/^(paneId|pane_id|otherPaneId|source_pane_id|target_pane_id)$/.test(name)) return live.pane;
  if (/^(windowId|window|window_id)$/.test(name)) return live.window;
  if (/^(session|session_id|sourceSession|destination_session|sessionId)$/.test(name)) return live.session;
  if (name === 'target') return live.pane;
  const type = schema.type ?? schema.anyOf?.find((s: Schema) => s.type !== 'null')?.type;
  if (schema.enum) return schema.enum[0];
  if (type === 'string') return name === 'name' || name === 'session_name' ? 'fz' : 'fz';
  if (type === 'integer' || type === 'number') return /timeout|wait/i.test(name) ? 1 : Math.max(schema.minimum ?? 1, 1);
  if (type === 'boolean') return false;
  if (type === 'array') return ['fz'];
  if (type === 'object') return {};
  return undefined;
}

function stringish(schema: Schema): 'string' | 'strings' | undefined {
  const options: Schema[] = schema.anyOf ?? [schema];
  if (options.some((s) => s.type === 'string')) return 'string';
  if (options.some((s) => s.type === 'array' && s.items?.type === 'string')) return 'strings';
  return undefined;
}

async function liveTargets(
  tmux: PrivateTmux,
  mcp: McpSession,
  profile: string,
): Promise<{ pane: string; window: string; session: string; target?: object }> {
  if ((await tmux.tmux('list-sessions', '-F', '#{session_id}').catch(() => '')).trim() === '') await tmux.start({ session: 'main' });
  const [pane, window, session] = (
    await tmux
      .tmux('display-message', '-p', '-t', 'main', '#{pane_id} #{window_id} #{session_id}')
      .catch(() => tmux.tmux('display-message', '-p', '#{pane_id} #{window_id} #{session_id}'))
  )
    .trim()
    .split(' ') as [string, string, string];
  if (profile !== 'julia') return { pane, window, session };
  const listed = (await mcp.call('list_panes', {})).structuredContent as { panes: Array<{ target: { paneId: string } }> };
  return { pane, window, session, target: listed.panes.find((p) => p.target.paneId === pane)?.target ?? listed.panes[0]?.target };
}

for (const profile of ['libtmux', 'python', 'julia']) {
  test(`${profile}: every string argument of every tool aimed at sentinel files leaves them as they were`, async (t) => {
    const sentinels = plant(t);
    const tmux = privateTmux(t);
    await tmux.start({ session: 'main' });
    const mcp = await startMcp(t, {
      env: {
        ...tmux.env,
        TMUX_TMPDIR: sentinels.socketTmpdir,
        LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown',
        LIBTMUX_MCP_WAIT_MAX_SECONDS: '1',
      },
      args: PROFILE_ARGS[profile]!,
    });
    const { tools } = await mcp.client.listTools();
    let calls = 0;
    for (const tool of tools) {
      const properties: Record<string, Schema> = (tool.inputSchema as Schema).properties ?? {};
      const required: string[] = (tool.inputSchema as Schema).required ?? [];
      // Read once per tool: a tool that kills the session is followed by a fresh one for the next.
      const live = await liveTargets(tmux, mcp, profile);
      const base = Object.fromEntries(required.map((name) => [name, baseValue(name, properties[name]!, live)]));
      for (const [field, schema] of Object.entries(properties)) {
        const kind = stringish(schema);
        if (!kind) continue;
        // The one path a caller names for writing gets a fresh file of its own; the rest aim at the sentinels
        // (a field that names a place on disk at each of them, any other field at the plain file).
        const values =
          field === 'output_path'
            ? [join(sentinels.dir, `out-${calls}.log`)]
            : field === 'socket_name'
              ? ['victim', sentinels.file]
              : /path|dir|socket|file/i.test(field)
                ? [sentinels.file, sentinels.named, sentinels.lockOf]
                : [sentinels.file];
        for (const value of values) {
          calls++;
          await mcp.call(tool.name, { ...base, [field]: kind === 'strings' ? [value] : value }).catch(() => undefined);
          // A pipe started to a fresh file is stopped again, so the next call's output goes nowhere.
          if (field === 'output_path') await tmux.tmux('pipe-pane', '-t', live.pane).catch(() => '');
          sentinels.intact();
        }
      }
    }
    t.diagnostic(`${profile}: ${calls} calls aimed at the sentinels; all intact`);
    assert.ok(calls >= Math.min(tools.length, 9), `${calls} calls`);
  });
}

/** Starts the CLI, asks it to create a session (a new tmux server), ends its input once answered; answers its exit code. */
function startAndCreate(args: string[], env: NodeJS.ProcessEnv, profile: string): Promise<number | null> {
  return new Promise((resolve) => {
    const http = args.includes('--http');
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const send = (message: object) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
    child.stdin.on('error', () => {});
    let out = '';
    let err = '';
    // Over HTTP stdin means nothing: once it listens, the server is stopped as a service manager would.
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
      if (http && err.includes('HTTP at')) child.kill('SIGTERM');
    });
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('"id":2')) child.stdin.end();
    });
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    });
    send({ method: 'notifications/initialized' });
    const create =
      profile === 'libtmux' ? { name: 'fz' } : profile === 'python' ? { session_name: 'fz' } : { name: 'fz', command: ['/bin/sh'] };
    send({ id: 2, method: 'tools/call', params: { name: 'create_session', arguments: create } });
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve(code);
    });
  });
}

test('every flag and variable that takes a path or a socket name, in every profile, aimed at sentinel files leaves them as they were', async (t) => {
  const sentinels = plant(t);
  // A TMUX_TMPDIR whose tmux-<uid> is an ordinary file, not a directory.
  const fileAsSocketDir = join(sentinels.dir, 'tmpdir');
  mkdirSync(fileAsSocketDir);
  const socketDirFile = join(fileAsSocketDir, `tmux-${process.getuid?.() ?? 0}`);
  writeFileSync(socketDirFile, 'keep me\n', { mode: 0o640 });
  const env = scrubbedEnv({ TMUX_TMPDIR: sentinels.socketTmpdir });
  // Servers the runs that pass start-up may start on the default socket there are killed at the end.
  sentinels.dispose('libtmux-mcp');
  let runs = 0;
  // The profiles run side by side (each start-up is mostly loading Node); the files are checked after each.
  await Promise.all(
    ['libtmux', 'python', 'julia'].map(async (profile) => {
      const cases: Array<[string[], NodeJS.ProcessEnv]> = [
        [['--socket', sentinels.file], {}],
        [['--socket', sentinels.lockOf], {}],
        [[], { LIBTMUX_SOCKET_PATH: sentinels.file }],
        [[], { LIBTMUX_SOCKET_PATH: sentinels.lockOf }],
        [['--socket-name', 'victim'], {}],
        [[], { LIBTMUX_SOCKET_NAME: 'victim' }],
        [[], { LIBTMUX_SOCKET: 'victim' }],
        [['--tmux', sentinels.file], {}],
        [['--host', `a=localhost#${sentinels.file}`], { TMUX_MCP_SSH_CONFIG: sentinels.file }],
        [[], { TMUX_TMPDIR: fileAsSocketDir, LIBTMUX_SOCKET_NAME: 'x' }],
        [['--http', '127.0.0.1:0', '--token-file', sentinels.file], {}],
      ];
      for (const [args, extra] of cases) {
        runs++;
        await startAndCreate([...PROFILE_ARGS[profile]!, ...args], { ...env, ...extra }, profile);
        sentinels.intact();
        assert.equal(readFileSync(socketDirFile, 'utf8'), 'keep me\n');
      }
    }),
  );
  t.diagnostic(`${runs} start-ups aimed at the sentinels; all intact`);
});
