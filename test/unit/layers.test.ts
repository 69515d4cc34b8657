/**
 * Holds DESIGN.md's layering: each layer imports only from the layers below it
 * (cli -> view, mcp, profiles -> core -> tmux). A relative import that climbs to a higher layer fails here.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** What each top-level folder of src may import from (itself always allowed). */
const ALLOWED: Record<string, readonly string[]> = {
  tmux: [],
  core: ['tmux'],
  mcp: ['core', 'tmux'],
  profiles: ['mcp', 'core', 'tmux'],
  // The live view sits beside the profiles: it uses core's pane streams, the audit trail and HTTP gates of mcp.
  view: ['mcp', 'core', 'tmux'],
  // The command line is on top: it may start anything but speaks to tmux only through core.
  cli: ['view', 'profiles', 'mcp', 'core', 'config.js'],
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

const layerOf = (file: string) => relative(SRC, file).split('/')[0]!;

test('each layer imports only from the layers below it', () => {
  const violations: string[] = [];
  for (const file of files(SRC)) {
    const layer = layerOf(file);
    const allowed = ALLOWED[layer];
    if (!allowed) continue; // cli.ts, config.ts, version.ts sit on top and may import anything
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), match[1]!);
      const targetLayer = relative(SRC, target).split('/')[0]!;
      if (targetLayer === layer || allowed.includes(targetLayer)) continue;
      // The version constant and the typed Config are plain data that cli.ts hands down.
      if (targetLayer === 'version.js' || (targetLayer === 'config.js' && (layer === 'profiles' || layer === 'mcp'))) continue;
      violations.push(`${relative(SRC, file)} imports ${match[1]} (${targetLayer})`);
    }
  }
  assert.deepEqual(violations, []);
});
