// Builds dist/: one ESM bundle of the server with its dependencies inside, so that start-up reads a
// handful of files instead of resolving and loading several hundred modules of the SDK, zod and ajv
// (bench/notes.md). The licences of what is bundled go beside it.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist');
// Chunk names change with their content: a stale one left in dist/ would be packed.
rmSync(outdir, { recursive: true, force: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/cli.ts'],
  outbase: 'src',
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
  // Bundled CommonJS (ajv) calls require() for Node's own modules; ESM has none, so one is made
  // (on first use: every chunk carries this line, and most never call it).
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; let __require_; const require = (id) => (__require_ ??= __createRequire(import.meta.url))(id);",
  },
});

// The live view's page script, for the browser, with xterm.js inside, and xterm's stylesheet from
// its package: src/view/server.ts serves both from dist/view/, so the page loads nothing from elsewhere.
const page = await build({
  absWorkingDir: root,
  entryPoints: ['src/view/client/view.ts'],
  outfile: join(outdir, 'view', 'view.js'),
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  minify: true,
  metafile: true,
  logLevel: 'warning',
});
copyFileSync(join(root, 'node_modules/@xterm/xterm/css/xterm.css'), join(outdir, 'view', 'xterm.css'));

chmodSync(join(outdir, 'cli.js'), 0o755);
writeFileSync(
  join(outdir, 'THIRD-PARTY-NOTICES.txt'),
  notices([...Object.keys(result.metafile.inputs), ...Object.keys(page.metafile.inputs)]),
);

/** The name, version, licence and licence text of every package with code in the bundle. */
function notices(inputs) {
  const roots = new Set();
  for (const input of inputs) {
    const parts = input.split(/[\\/]/);
    const at = parts.lastIndexOf('node_modules');
    if (at === -1) continue;
    const length = parts[at + 1]?.startsWith('@') ? 3 : 2;
    roots.add(parts.slice(0, at + length).join(sep));
  }
  const sections = [...roots].sort().map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const files = readdirSync(join(root, dir));
    // The licence, and any NOTICE file (Apache-2.0 asks that it travel with the code).
    const texts = [/^(licen[cs]e|copying)(\.|$)/i, /^notice(\.|$)/i]
      .map((pattern) => files.find((name) => pattern.test(name)))
      .filter((name) => name !== undefined)
      .map((name) => readFileSync(join(root, dir, name), 'utf8').trim());
    return `${pkg.name} ${pkg.version} (${pkg.license}), from ${relative(root, join(root, dir))}\n\n${texts.join('\n\n') || `License: ${pkg.license}`}\n`;
  });
  return `tmux-mcp-ts bundles the following packages into dist/.\n\n${sections.join('\n' + '-'.repeat(72) + '\n\n')}`;
}
