/**
 * The first answers (src/mcp/wire/first-answers.ts) are written before the SDK loads: they must be the
 * bytes the SDK writes. Each profile answers one opening through that path and one the path leaves to
 * the SDK (a clientInfo with a title, a tools/list with params), and the answers must be equal; the
 * session then goes on in the SDK (a call and a ping are answered).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { CLI } from '../fixture/mcp.js';
import { privateTmux } from '../fixture/tmux.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../../src/mcp/surface/listing.js';

/** Writes `lines` at once and returns the first `count` lines the server writes. */
async function exchange(env: NodeJS.ProcessEnv, args: string[], lines: unknown[], count: number): Promise<string[]> {
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdin.write(lines.map((line) => JSON.stringify(line) + '\n').join(''));
  let out = '';
  const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.split('\n').length > count) resolve();
    });
    child.on('exit', () => resolve());
  });
  clearTimeout(deadline);
  child.stdin.end();
  return out.split('\n').slice(0, count);
}

const initialize = (clientInfo: object) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo } });
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

test('the versions answered before the SDK loads are the SDK\'s own', () => {
  assert.deepEqual(LEGACY_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS);
});

// Each profile as the build stored its surface (src/profiles/stored-surface.ts), and with a selection it did not store.
const OPENINGS: Array<[profile: string, how: string, extra: string[], extraEnv: NodeJS.ProcessEnv]> = [
  ['libtmux', 'stored', [], {}],
  ['libtmux', 'not stored', [], { LIBTMUX_EXCLUDE_TOOLS: 'kill_session' }],
  ['python', 'stored', [], {}],
  ['python', 'not stored', [], { LIBTMUX_EXCLUDE_TOOLS: 'kill_server' }],
  ['julia', 'stored', [], {}],
  ['julia', 'not stored', ['--tool', 'list_panes', '--tool', 'capture_pane'], {}],
];

for (const [profile, how, extra, extraEnv] of OPENINGS) {
  test(`${profile}, surface ${how}: initialize and tools/list answered before the SDK are the SDK's bytes, and the session goes on`, async (t) => {
    const tmux = privateTmux(t);
    await tmux.start();
    const args = ['--profile', profile, '--socket', tmux.socketPath, ...extra];
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_panes', arguments: {} } };
    const env = { ...tmux.env, ...extraEnv };
    const early = await exchange(env, args, [initialize({ name: 'x', version: '0' }), initialized, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, call, { jsonrpc: '2.0', id: 4, method: 'ping' }], 4);
    const sdk = await exchange(env, args, [initialize({ name: 'x', title: 'X', version: '0' }), initialized, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }], 2);
    assert.equal((JSON.parse(early[1]!) as { result: { tools: unknown[] } }).result.tools.length > 0, true, 'tools/list answered');
    assert.equal(early[0], sdk[0], 'initialize');
    assert.equal(early[1], sdk[1], 'tools/list');
    const rest = early.slice(2).map((line) => JSON.parse(line) as { id: number; result?: unknown; error?: unknown });
    assert.deepEqual(rest.map((answer) => answer.id).sort(), [3, 4]);
    for (const answer of rest) assert.ok(answer.result !== undefined, JSON.stringify(answer));
  });
}
