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
    assert.ok(
      sources.some((file) => layerOf(file) === layer),
      `no source file in layer ${layer}`,
    );
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
    .filter((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].some(
        (m) => layerOf(resolve(dirname(file), m[1]!)) === 'cli',
      ),
    );
  assert.deepEqual(
    importers.map((file) => relative(SRC, file)),
    [],
  );
});

/** The relative imports of a source file (type-only ones too: they tie the files together for a reader as much), as files. */
function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
    resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts'),
  );
}

/** Layers above core: they use core only through its front door. */
const ABOVE_CORE = ['mcp', 'profiles', 'view'];

test('profiles, mcp and view import core only through src/core/index.ts', () => {
  const door = join(SRC, 'core', 'index.ts');
  const side = files(SRC)
    .filter((file) => ABOVE_CORE.includes(layerOf(file)))
    .flatMap((file) =>
      importsOf(file)
        .filter((target) => layerOf(target) === 'core' && target !== door)
        .map((target) => `${relative(SRC, file)} imports ${relative(SRC, target)}`),
    );
  assert.deepEqual(side, []);
});

test('nothing above core reaches past an engine into its tmux connection (`.tmux.`)', () => {
  const reaches = files(SRC)
    .filter((file) => !['core', 'tmux'].includes(layerOf(file)))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\w\.tmux\b/.test(line) ? [`${relative(SRC, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
  assert.deepEqual(reaches, []);
});

test('no import cycle inside a layer', () => {
  const sources = files(SRC);
  const cycles: string[] = [];
  for (const layer of new Set(sources.map(layerOf))) {
    const inLayer = new Set(sources.filter((file) => layerOf(file) === layer));
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      path.push(file);
      for (const target of importsOf(file)) {
        if (!inLayer.has(target)) continue;
        if (state.get(target) === 'open')
          cycles.push([...path.slice(path.indexOf(target)), target].map((f) => relative(SRC, f)).join(' -> '));
        else if (!state.has(target)) visit(target);
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of inLayer) if (!state.has(file)) visit(file);
  }
  assert.deepEqual(cycles, []);
});
