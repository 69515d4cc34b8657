/**
 * Stores each profile's first surface (src/profiles/stored-surface.ts) for the configurations most
 * servers start with: every way of naming the socket, read-only or not. Run by build.mjs with the
 * output directory; each surface is computed by the code the server runs, from a profile built as
 * the server builds it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registryFor } from '../src/cli/engine.js';
import { parseCli } from '../src/cli/options.js';
import { PROFILES } from '../src/config.js';
import { firstSurface } from '../src/mcp/surface/listing.js';
import { buildProfile } from '../src/profiles/index.js';
import { INDEX_FILE, surfaceFile, surfaceKey } from '../src/profiles/stored-surface.js';

const SOCKETS: Array<[string[], NodeJS.ProcessEnv]> = [
  [[], {}],
  [['--socket', '/run/tmux.sock'], {}],
  [['--socket-name', 'work'], {}],
  [[], { LIBTMUX_SOCKET_PATH: '/run/tmux.sock' }],
  [[], { LIBTMUX_SOCKET_NAME: 'work' }],
  [[], { LIBTMUX_SOCKET: 'work' }],
];

const dir = join(process.argv[2] ?? 'dist', 'surfaces');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const index: Record<string, string> = {};
for (const profile of PROFILES) {
  for (const [args, env] of SOCKETS) {
    for (const readOnly of [[], ['--read-only']]) {
      const action = parseCli(['--profile', profile, ...args, ...readOnly], env);
      if (action.kind !== 'serve') throw new Error(`not a configuration: ${args.join(' ')}`);
      const registry = registryFor(action.config);
      const { profile: built, selectionSummary } = await buildProfile(action.config, registry, false);
      const file = surfaceFile({ surface: firstSurface(built), selectionSummary });
      const name = `${createHash('sha256').update(file).digest('hex').slice(0, 16)}.json`;
      writeFileSync(join(dir, name), file);
      index[surfaceKey(action.config)] = name;
      await registry.close();
    }
  }
}
writeFileSync(join(dir, INDEX_FILE), JSON.stringify(index));
