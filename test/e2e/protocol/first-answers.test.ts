/**
 * A client's opening over stdio, written all at once the moment the server is spawned (initialize,
 * initialized, tools/list, a call, a ping), is read and answered in full once the server is up: the
 * `initialize` and `tools/list` answers are the bytes a client that waits for each answer gets, and
 * the session goes on (the call and the ping are answered). Each profile, with and without a selection.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { CLI } from '../../fixture/mcp.js';
import { privateTmux } from '../../fixture/tmux.js';

/**
 * Writes `lines` (all at once, or each request only once the one before it is answered) and
 * returns the first `count` lines the server writes.
 */
async function exchange(
  env: NodeJS.ProcessEnv,
  args: string[],
  lines: Array<{ id?: number }>,
  count: number,
  stepwise: boolean,
): Promise<string[]> {
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const write = (from: number) => {
    // Up to and including the next request: a notification needs no answer to wait for.
    let to = from;
    while (to < lines.length && (!stepwise || lines[to]!.id === undefined)) to++;
    child.stdin.write(
      lines
        .slice(from, to + 1)
        .map((line) => JSON.stringify(line) + '\n')
        .join(''),
    );
    return to + 1;
  };
  let next = write(0);
  let out = '';
  const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const answered = out.split('\n').length - 1;
      if (answered >= count) return resolve();
      if (stepwise && next < lines.length && answered === lines.slice(0, next).filter((line) => line.id !== undefined).length)
        next = write(next);
    });
    child.on('exit', () => resolve());
  });
  clearTimeout(deadline);
  child.stdin.end();
  return out.split('\n').slice(0, count);
}

const OPENING = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_panes', arguments: {} } },
  { jsonrpc: '2.0', id: 4, method: 'ping' },
];

const OPENINGS: Array<[profile: string, how: string, extra: string[], extraEnv: NodeJS.ProcessEnv]> = [
  ['libtmux', 'every tool', [], {}],
  ['libtmux', 'a selection', [], { LIBTMUX_EXCLUDE_TOOLS: 'kill_session' }],
  ['python', 'every tool', [], {}],
  ['python', 'a selection', [], { LIBTMUX_EXCLUDE_TOOLS: 'kill_server' }],
  ['julia', 'every tool', [], {}],
  ['julia', 'a selection', ['--tool', 'list_panes', '--tool', 'capture_pane'], {}],
];

for (const [profile, how, extra, extraEnv] of OPENINGS) {
  test(`${profile}, ${how}: an opening written before the server is up is answered in full, as a client that waits is answered`, async (t) => {
    const tmux = privateTmux(t);
    await tmux.start();
    const args = ['--profile', profile, '--socket', tmux.socketPath, ...extra];
    const env = { ...tmux.env, ...extraEnv };
    const early = await exchange(env, args, OPENING, 4, false);
    const waited = await exchange(env, args, OPENING.slice(0, 3), 2, true);
    assert.equal((JSON.parse(early[1]!) as { result: { tools: unknown[] } }).result.tools.length > 0, true, 'tools/list answered');
    assert.equal(early[0], waited[0], 'initialize');
    assert.equal(early[1], waited[1], 'tools/list');
    const rest = early.slice(2).map((line) => JSON.parse(line) as { id: number; result?: unknown; error?: unknown });
    assert.deepEqual(rest.map((answer) => answer.id).sort(), [3, 4]);
    for (const answer of rest) assert.ok(answer.result !== undefined, JSON.stringify(answer));
  });
}
