/**
 * Start-up answers `initialize` and `tools/list` from the surface the build stored for a
 * configuration's key (src/profiles/stored-surface.ts). The key leaves out only the fields no
 * profile's surface depends on: each is varied here, in every profile, and the surface must not move.
 * Every field of Config is named below, so a new one must be placed before this compiles.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { registryFor } from '../../src/cli/engine.js';
import { parseCli } from '../../src/cli/options.js';
import { PROFILES, type Config } from '../../src/config.js';
import { parseSessionPatterns } from '../../src/core/targets/scope.js';
import { firstSurface } from '../../src/mcp/surface/listing.js';
import { buildProfile } from '../../src/profiles/index.js';
import { INDEX_FILE, storedSurface, SURFACE_FREE, surfaceFile, surfaceKey, type StoredSurface } from '../../src/profiles/stored-surface.js';

/** How each field is varied; 'keyed' for the fields the key keeps (their values choose the surface). */
const VARIED: Record<keyof Config, ((config: Config) => Config) | 'keyed'> = {
  profile: 'keyed',
  socketSource: 'keyed',
  toolsets: 'keyed',
  tools: 'keyed',
  excludeTools: 'keyed',
  readOnly: 'keyed',
  julia: 'keyed',
  suppressHistory: 'keyed',
  waitMaxMs: (config) => ({ ...config, waitMaxMs: 5_000 }),
  hosts: (config) => ({ ...config, hosts: [{ name: 'h1', destination: 'h1', socketName: 'work' }] }),
  caller: (config) => ({ ...config, caller: { paneId: '%1', serverPid: 4242 } }),
  allowSessions: (config) => ({ ...config, allowSessions: parseSessionPatterns(['work', 'agent-*']) }),
  tmuxBin: (config) => ({ ...config, tmuxBin: '/opt/tmux/bin/tmux' }),
  socketName: (config) => ({ ...config, socketName: 'elsewhere' }),
  socketPath: (config) => ({ ...config, socketName: undefined, socketPath: '/run/user/tmux.sock' }),
  commandTimeoutMs: (config) => ({ ...config, commandTimeoutMs: 2_000 }),
  idleGc: (config) => ({ ...config, idleGc: false }),
  http: (config) => ({ ...config, http: { host: '127.0.0.1', port: 8765, allowedHostnames: ['box'] } }),
  record: (config) => ({ ...config, record: { dir: '/var/rec', maxBytes: 1_000 } }),
  audit: (config) => ({ ...config, audit: { file: '/var/audit.log', redact: ['secret'] } }),
  view: (config) => ({ ...config, view: { host: '127.0.0.1', port: 8766, allowedHostnames: [] } }),
  approvals: (config) => ({ ...config, approvals: { rules: ['destructive', 'text:rm -rf'], timeoutMs: 60_000, startPaused: false } }),
};

async function surfaceOf(config: Config): Promise<StoredSurface> {
  const registry = registryFor(config);
  try {
    const { profile, selectionSummary } = await buildProfile(config, registry, false);
    return { surface: firstSurface(profile), selectionSummary };
  } finally {
    await registry.close();
  }
}

function serveConfig(argv: string[], env: NodeJS.ProcessEnv = {}): Config {
  const action = parseCli(argv, env);
  assert.equal(action.kind, 'serve');
  return (action as { config: Config }).config;
}

test('the key leaves out exactly the fields varied here, and none of them moves any profile\'s surface', async () => {
  const free = Object.entries(VARIED).filter(([, vary]) => vary !== 'keyed').map(([field]) => field);
  assert.deepEqual([...SURFACE_FREE].sort(), free.sort());
  for (const profile of PROFILES) {
    const base = serveConfig(['--profile', profile]);
    const expected = surfaceFile(await surfaceOf(base));
    for (const field of SURFACE_FREE) {
      const varied = (VARIED[field] as (config: Config) => Config)(base);
      assert.equal(surfaceKey(varied), surfaceKey(base), `${profile}: ${field} is not in the key`);
      assert.equal(surfaceFile(await surfaceOf(varied)), expected, `${profile}: ${field} moved the surface`);
    }
  }
});

test('a keyed field that changes the surface changes the key', async () => {
  const base = serveConfig(['--profile', 'python']);
  const fewer = serveConfig(['--profile', 'python'], { LIBTMUX_TOOLSETS: 'inspect' });
  assert.notEqual(surfaceKey(fewer), surfaceKey(base));
  assert.notEqual(surfaceFile(await surfaceOf(fewer)), surfaceFile(await surfaceOf(base)));
  const readOnly = serveConfig(['--profile', 'python', '--read-only']);
  assert.notEqual(surfaceKey(readOnly), surfaceKey(base));
  assert.notEqual(surfaceFile(await surfaceOf(readOnly)), surfaceFile(await surfaceOf(base)));
});

test('a stored surface reads back as it was made; a configuration not stored, or no stored surfaces, reads as none', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'surfaces-'));
  const config = serveConfig(['--profile', 'julia']);
  const made = await surfaceOf(config);
  writeFileSync(join(dir, 'julia.json'), surfaceFile(made));
  writeFileSync(join(dir, INDEX_FILE), JSON.stringify({ [surfaceKey(config)]: 'julia.json' }));
  const url = pathToFileURL(`${dir}/`);
  assert.deepEqual(storedSurface(config, url), made);
  assert.ok(made.surface.rules?.methods instanceof Set, 'the rules come back with their methods as a set');
  assert.equal(storedSurface(serveConfig(['--profile', 'julia', '--read-only']), url), undefined);
  assert.equal(storedSurface(config, pathToFileURL(join(dir, 'none/'))), undefined);
});
