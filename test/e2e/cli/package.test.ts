/**
 * The package people install: packed from a copy of the sources (the build runs before packing, not
 * on install), installed into an empty folder, then `npx tmux-mcp --version` and one tool call
 * through the installed bin. Also: LICENSE, repository and MCP registry metadata agree.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startMcp } from '../../fixture/mcp.js';
import { privateTmux } from '../../fixture/tmux.js';
import { until } from '../../fixture/until.js';
import { ROOT } from '../../fixture/root.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

test('package metadata: MIT LICENSE, repository, no install-time scripts, registry server.json matching mcpName', () => {
  assert.equal(pkg.license, 'MIT');
  assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), /^MIT License/);
  assert.match(pkg.repository?.url ?? '', /^git\+https:\/\/github\.com\/[^/]+\/[^/]+\.git$/);
  for (const script of ['preinstall', 'install', 'postinstall', 'prepare'])
    assert.equal(pkg.scripts[script], undefined, `no ${script} script`);
  assert.match(pkg.scripts.prepack, /rmSync\('dist'.*&& npm run build$/, 'a clean build runs before packing, so no stale file ships');
  const server = JSON.parse(readFileSync(join(ROOT, 'server.json'), 'utf8'));
  assert.equal(server.name, pkg.mcpName);
  assert.equal(server.version, pkg.version);
  assert.ok(server.description.length <= 100, 'the registry allows 100 characters');
  assert.deepEqual(
    server.packages.map((p: { identifier: string; version: string }) => [p.identifier, p.version]),
    [[pkg.name, pkg.version]],
  );
  assert.equal(server.repository.url, pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, ''));
});

test('npm pack, install into an empty folder, npx tmux-mcp --version, one tool call', async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'tmux-mcp-package-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const npm = (args: string[], cwd: string) =>
    execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });

  // Pack a copy, so the prepack build writes its own dist/ and not the one other tests are running.
  const source = join(work, 'source');
  mkdirSync(source);
  for (const entry of ['package.json', 'package-lock.json', 'tsconfig.json', 'README.md', 'LICENSE', 'scripts', 'skills', 'src'])
    cpSync(join(ROOT, entry), join(source, entry), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'));
  const packed = join(work, 'packed');
  mkdirSync(packed);
  npm(['pack', '--pack-destination', packed, '--silent'], source);
  const [tarball] = readdirSync(packed);
  assert.equal(tarball, `${pkg.name}-${pkg.version}.tgz`);

  const files = execFileSync('tar', ['-tzf', join(packed, tarball!)], { encoding: 'utf8' })
    .trim()
    .split('\n');
  assert.ok(
    files.includes('package/dist/cli.js') && files.includes('package/LICENSE') && files.includes('package/README.md'),
    files.join('\n'),
  );
  assert.ok(files.includes('package/skills/tmux/SKILL.md'), 'the skill for agents that read skills ships with the package');
  assert.deepEqual(
    files.filter(
      (file) =>
        !/^package\/(dist\/.*\.js(\.map)?|dist\/view\/xterm\.css|dist\/THIRD-PARTY-NOTICES\.txt|skills\/tmux\/SKILL\.md|LICENSE|README\.md|package\.json)$/.test(
          file,
        ),
    ),
    [],
    'nothing but the build, the notices of what it bundles, the skill, the license, the readme and package.json',
  );
  const skill = execFileSync('tar', ['-xzOf', join(packed, tarball!), 'package/skills/tmux/SKILL.md'], { encoding: 'utf8' });
  assert.match(skill, /^---\nname: tmux\ndescription: \S.*\n---\n/, 'front matter with name and description');
  // The live view's page: its script (xterm.js inside) and xterm's stylesheet, served from the package.
  assert.ok(files.includes('package/dist/view/view.js') && files.includes('package/dist/view/xterm.css'), files.join('\n'));
  // The build bundles its dependencies: the package needs none installed, and names and licenses each bundled one.
  assert.equal(pkg.dependencies, undefined, 'no runtime dependencies: they are in the bundle');
  const notices = execFileSync('tar', ['-xzOf', join(packed, tarball!), 'package/dist/THIRD-PARTY-NOTICES.txt'], { encoding: 'utf8' });
  for (const name of ['@modelcontextprotocol/server', '@modelcontextprotocol/node', 'zod', 'ajv', '@xterm/xterm'])
    assert.match(notices, new RegExp(`^${name} \\S+ \\((MIT|Apache-2\\.0)\\)`, 'm'), name);
  for (const map of files.filter((file) => file.endsWith('.map'))) {
    // A bundle's map carries every bundled source, well past execFileSync's 1 MiB default buffer.
    const content = JSON.parse(
      execFileSync('tar', ['-xzOf', join(packed, tarball!), map], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }),
    );
    assert.equal(content.sourcesContent?.length, content.sources.length, `${map} carries its sources (the package ships none)`);
  }

  const app = join(work, 'app');
  mkdirSync(app);
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', join(packed, tarball!)], app);
  assert.equal(
    execFileSync('npx', ['--no', '--', 'tmux-mcp', '--version'], { cwd: app, encoding: 'utf8', timeout: 60_000 }),
    `${pkg.version}\n`,
  );

  const tmux = privateTmux(t);
  await tmux.start({ session: 'installed' });
  const mcp = await startMcp(t, {
    env: { ...tmux.env, TMUX_MCP_TOKEN: 'package-token' },
    command: join(app, 'node_modules', '.bin', 'tmux-mcp'),
    cwd: app,
    args: ['--view', '127.0.0.1:0'],
  });
  assert.deepEqual(
    (await mcp.ok('list_sessions')).sessions.map((s: { name: string }) => s.name),
    ['installed'],
  );
  // The shell's way in, from the installed bin too.
  const called = JSON.parse(
    execFileSync(join(app, 'node_modules', '.bin', 'tmux-mcp'), ['call', 'list_sessions'], {
      env: tmux.env,
      encoding: 'utf8',
      input: '',
      timeout: 60_000,
    }),
  );
  assert.deepEqual(
    called.sessions.map((s: { name: string }) => s.name),
    ['installed'],
  );
  // The installed package serves the live view's page and its assets from itself.
  const view = await until('the view banner', () => /view at (\S+)/.exec(mcp.stderr())?.[1]);
  for (const [path, type] of [
    ['', 'text/html'],
    ['view.js', 'text/javascript'],
    ['xterm.css', 'text/css'],
  ]) {
    const answer = await fetch(`${view}${path}`, { headers: { authorization: 'Bearer package-token' } });
    assert.equal(answer.status, 200, path);
    assert.match(answer.headers.get('content-type') ?? '', new RegExp(`^${type}`), path);
    assert.ok((await answer.text()).length > 100, path);
  }
});
