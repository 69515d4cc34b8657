// Builds .test-build/, the tree `npm test` runs: src/, test/ and bench/ copied with each .ts file
// compiled beside it, and every other entry of the repository linked. Node 20 loads TypeScript only
// through loader hooks, which cost a test process about a second of CPU; plain JavaScript does not.
// Relative paths in the tests (dist/cli.js, the contracts, the README) resolve as in the sources.
import { build } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, '.test-build');
const compiled = ['src', 'test', 'bench'];

rmSync(out, { recursive: true, force: true });
mkdirSync(out);
const sources = [];
for (const dir of compiled) {
  cpSync(join(root, dir), join(out, dir), { recursive: true });
  for (const file of readdirSync(join(root, dir), { recursive: true }))
    if (file.endsWith('.ts') && !file.endsWith('.d.ts')) sources.push(join(dir, file));
}
for (const entry of readdirSync(root))
  if (!compiled.includes(entry) && entry !== '.test-build' && entry !== '.git') symlinkSync(join(root, entry), join(out, entry));

await build({
  absWorkingDir: root,
  entryPoints: sources,
  outbase: root,
  outdir: out,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Failures point at the TypeScript lines (node --enable-source-maps).
  sourcemap: 'inline',
  logLevel: 'warning',
});
