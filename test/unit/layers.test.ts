/**
 * Holds DESIGN.md's layering (docs/ARCHITECTURE.md draws it): each layer imports only from the layers
 * below it, cli -> view, mcp, profiles -> config -> core -> tmux. A relative import that climbs fails here.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/**
 * What each layer may import from (itself always allowed). A layer is a top-level folder of src, or
 * one of its top-level files; `cli.ts`, the entry point, belongs to `cli`.
 */
const ALLOWED: Record<string, readonly string[]> = {
  // A leaf: the version constant uses only Node.
  'version.ts': [],
  tmux: [],
  core: ['tmux'],
  // The configuration is plain data for the layers above core: its types and defaults, nothing that parses.
  'config.ts': ['core'],
  mcp: ['config.ts', 'core'],
  profiles: ['mcp', 'config.ts', 'core', 'version.ts'],
  // The live view sits beside the profiles: it uses core's pane streams, the audit trail and HTTP gates of mcp.
  view: ['mcp', 'config.ts', 'core'],
  // The command line is on top: it may start anything but speaks to tmux only through core.
  cli: ['view', 'profiles', 'mcp', 'config.ts', 'core', 'version.ts'],
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The layer of a source file, or of an import's target (written `.js`, as ESM imports name the built file). */
function layerOf(file: string): string {
  const top = relative(SRC, file).split('/')[0]!.replace(/\.js$/, '.ts');
  return top === 'cli.ts' ? 'cli' : top;
}

test('each layer imports only from the layers below it', () => {
  const violations: string[] = [];
  const sources = files(SRC);
  for (const file of sources) {
    const layer = layerOf(file);
    const allowed = ALLOWED[layer];
    if (!allowed) {
      violations.push(`${relative(SRC, file)} is in no layer; add its layer to ALLOWED`);
      continue;
    }
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const targetLayer = layerOf(resolve(dirname(file), match[1]!));
      if (targetLayer === layer || allowed.includes(targetLayer)) continue;
      violations.push(`${relative(SRC, file)} imports ${match[1]} (${targetLayer})`);
    }
  }
  assert.deepEqual(violations, []);
  // The check above saw the files it is about.
  for (const layer of ['cli', 'config.ts', 'core', 'mcp', 'profiles', 'tmux', 'view']) {
    assert.ok(sources.some((file) => layerOf(file) === layer), `no source file in layer ${layer}`);
  }
});

test('config.ts imports nothing above core, and nothing but types', () => {
  const source = readFileSync(join(SRC, 'config.ts'), 'utf8');
  const imports = [...source.matchAll(/^import\b.*$/gm)].map((m) => m[0]);
  assert.ok(imports.length > 0);
  for (const line of imports) assert.match(line, /^import type \{[^}]*\} from '\.\/core\/[^']+';$/);
});

test('cli/ is on top: no other layer imports it', () => {
  const importers = files(SRC)
    .filter((file) => layerOf(file) !== 'cli')
    .filter((file) => [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].some((m) => layerOf(resolve(dirname(file), m[1]!)) === 'cli'));
  assert.deepEqual(importers.map((file) => relative(SRC, file)), []);
});
