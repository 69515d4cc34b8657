/**
 * Every command block of README.md and of the skill (skills/), run as a newcomer would run it: in
 * bash with `set -e`, `tmux-mcp` on PATH (the built bin), a home and a private tmux of the test's own,
 * from the clone (README) or a project folder (the skill). A block that cannot run on the test
 * machine is listed below with the reason; a change made before running (a free port for a fixed
 * one) is listed with its reason too. Client configuration blocks are checked as JSON or TOML, and
 * for safe defaults: the private socket, never LIBTMUX_SOCKET_NAME=default.
 * A block found in the files but not listed here, or listed but gone, fails the test.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { CLI } from '../../fixture/mcp.js';
import { scrubbedEnv, TMUX_BIN } from '../../fixture/tmux.js';
import { until } from '../../fixture/until.js';
import { ROOT } from '../../fixture/root.js';

interface Block {
  readonly file: string;
  readonly lang: string;
  readonly text: string;
  /** The first line that is not a comment: what the table below knows the block by. */
  readonly key: string;
}

function blocksOf(file: string): Block[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    file,
    lang: m[1]!,
    text: m[2]!,
    key: m[2]!.split('\n').find((line) => line.trim() !== '' && !line.trim().startsWith('#')) ?? '',
  }));
}

/** A change made to a block before it runs, and why. */
interface Edit {
  readonly from: string | RegExp;
  readonly to: string;
  readonly why: string;
}

type Plan =
  | {
      readonly run: 'script';
      readonly cwd: 'clone' | 'project';
      readonly edits?: readonly Edit[];
      readonly after?: (home: string, out: string) => void;
    }
  | {
      readonly run: 'server';
      readonly edits: readonly Edit[];
      readonly until: RegExp;
      readonly after?: (home: string, url: string) => Promise<void>;
    }
  | { readonly check: 'json' | 'toml' | 'command' }
  | { readonly skip: string };

/** Fixed ports may be held by another program on a shared machine: each gets a free one. */
const freePort = (port: number): Edit => ({
  from: new RegExp(`\\b${port}\\b`, 'g'),
  to: `{port${port}}`,
  why: `port ${port} may be taken on a shared machine: a free port instead`,
});

const PLANS: Readonly<Record<string, Plan>> = {
  'README.md: npm ci && npm run build && node dist/cli.js': {
    run: 'script',
    cwd: 'clone',
    edits: [
      {
        from: 'npm ci && npm run build && ',
        to: '',
        why: 'npm ci would reinstall the node_modules this very suite runs from, and npm test has built dist/ already',
      },
    ],
  },
  'README.md: npm test': { skip: 'the suite itself: this test is one of its files' },
  'README.md: apt-get install -y tmux bash python3 openssh-server openssh-client fish zsh asciinema chromium jq openssl': {
    skip: 'installs system packages as root and builds tmux 3.5a; scripts/preflight.mjs has checked that all they install is here before any test ran',
  },
  'README.md: tmux-mcp tools                                           # the tools in force, one a line': {
    run: 'script',
    cwd: 'clone',
    after: (_home, out) => {
      assert.match(out, /"name": "work"/, 'create_session answered');
      assert.match(out, /"exitStatus": \d+/, 'run_shell_command answered with the exit status of make test');
    },
  },
  'README.md: mkdir -p ~/.claude/skills && cp -r skills/tmux ~/.claude/skills/': {
    run: 'script',
    cwd: 'clone',
    edits: [
      {
        from: /^cp -r "\$\(npm root -g\)\/tmux-mcp-ts\/skills\/tmux" ~\/.claude\/skills\/\n/m,
        to: '',
        why: 'needs the package installed globally (npm install -g), which the suite does not do to this machine; test/e2e/cli/package.test.ts finds skills/tmux/SKILL.md in the packed package',
      },
    ],
    after: (home) => {
      for (const agent of ['.claude', '.codex']) assert.ok(existsSync(join(home, agent, 'skills', 'tmux', 'SKILL.md')), agent);
    },
  },
  'README.md: claude mcp add tmux -- tmux-mcp': { check: 'command' },
  'README.md: { "mcpServers": { "tmux": { "command": "tmux-mcp" } } }': { check: 'json' },
  'README.md: [mcp_servers.tmux]': { check: 'toml' },
  'README.md: {': { check: 'json' },
  'README.md: (umask 077; openssl rand -hex 32 > ~/.tmux-mcp-token)': {
    run: 'server',
    edits: [freePort(8765)],
    until: /HTTP at (http:\/\/127\.0\.0\.1:\d+\/mcp)/,
    after: async (home, url) => {
      const file = join(home, '.tmux-mcp-token');
      assert.equal(statSync(file).mode & 0o777, 0o600, 'the token file is made private');
      const token = readFileSync(file, 'utf8').trim();
      assert.match(token, /^[0-9a-f]{64}$/);
      // The server took the token from the file: a call with it is answered.
      const listed = spawnSync(process.execPath, [CLI, 'tools', '--url', url, '--token-file', file], { encoding: 'utf8', timeout: 30_000 });
      assert.equal(listed.status, 0, listed.stderr);
    },
  },
  "README.md: tmux-mcp --host gpu=me@gpu.example --allow-session 'agent-*' --allow-session gpu:build --read-only": {
    run: 'script',
    cwd: 'clone',
    edits: [
      {
        from: /^asciinema play .*\n/m,
        to: '',
        why: 'names a recording for example (SESSION-pPANE-START.cast, as its comment says); test/e2e/oversight/recording.test.ts plays real ones with asciinema',
      },
      freePort(8766),
    ],
    after: (home, out) => {
      assert.equal(statSync(join(home, 'agent-recordings')).mode & 0o777, 0o700, 'the recordings folder is private');
      assert.match(out, /view at http:\/\/127\.0\.0\.1:\d+\//, 'the view is up at start-up');
    },
  },
  'README.md: tmux-mcp --host gpu=me@gpu.example --host build=ci-box#work': { run: 'script', cwd: 'clone' },
  'skills/tmux/SKILL.md: tmux-mcp call create_session \'{"name": "work"}\'': {
    run: 'script',
    cwd: 'project',
    after: (_home, out) => {
      // `npm run dev` in a folder with no package.json: npm says "npm error ...", which the stop pattern catches.
      assert.match(out, /"outcome": "stopped"/);
      assert.match(out, /"exitStatus": 2/, 'make test, with no Makefile, answered with its exit status');
    },
  },
};

/** Safe defaults: no client configuration puts the agent on the person's own tmux. */
function assertPrivateSocket(block: Block): void {
  assert.doesNotMatch(
    block.text,
    /LIBTMUX_SOCKET_NAME|LIBTMUX_SOCKET_PATH/,
    `${block.file}: a default snippet uses the private socket: ${block.text}`,
  );
}

function checkConfig(block: Block, kind: 'json' | 'toml' | 'command'): void {
  assertPrivateSocket(block);
  if (kind === 'json') {
    const config = JSON.parse(block.text) as { mcpServers: Record<string, { command?: string; url?: string }> };
    assert.equal(config.mcpServers.tmux?.command, 'tmux-mcp');
  } else if (kind === 'toml') {
    const parsed = execFileSync('python3', ['-c', 'import json, sys, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))'], {
      input: block.text,
      encoding: 'utf8',
    });
    const config = JSON.parse(parsed) as { mcp_servers: Record<string, { command?: string; env?: unknown }> };
    assert.equal(config.mcp_servers.tmux?.command, 'tmux-mcp');
    assert.equal(config.mcp_servers.tmux?.env, undefined);
  } else {
    // Claude Code's own CLI is not on the test machine: the lines are read, the server they register is tmux-mcp.
    for (const line of block.text.split('\n').filter((l) => l.startsWith('claude ')))
      assert.match(line, /^claude mcp add (tmux -- tmux-mcp|--transport http \S+ http:\/\/127\.0\.0\.1:\d+\/mcp --header)/, line);
  }
}

function tempDir(t: { after: (fn: () => void) => void }, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function port(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The block's text with its listed edits made (free ports filled in). */
async function edited(block: Block, edits: readonly Edit[] = []): Promise<string> {
  let text = block.text;
  for (const edit of edits) {
    assert.ok(
      typeof edit.from === 'string' ? text.includes(edit.from) : new RegExp(edit.from.source, edit.from.flags.replace('g', '')).test(text),
      `${block.key}: the edit "${edit.why}" still applies`,
    );
    text = typeof edit.from === 'string' ? text.replace(edit.from, edit.to) : text.replace(edit.from, edit.to);
  }
  for (const fixed of new Set(text.match(/\{port\d+\}/g) ?? [])) text = text.split(fixed).join(String(await port()));
  return text;
}

test('README and skill: every command block runs as written, or is listed with why not', async (t) => {
  const blocks = [...blocksOf('README.md'), ...blocksOf('skills/tmux/SKILL.md')];
  const keys = blocks.map((block) => `${block.file}: ${block.key}`);
  assert.deepEqual([...keys].sort(), Object.keys(PLANS).sort(), 'each block has a plan, and each plan a block');

  const home = tempDir(t, 'tmux-mcp-newcomer-home-');
  const bin = join(tempDir(t, 'tmux-mcp-newcomer-bin-'), 'tmux-mcp');
  // As `npm install -g` leaves it: `tmux-mcp` on PATH runs the built bin.
  writeFileSync(bin, `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
  chmodSync(bin, 0o755);
  const project = tempDir(t, 'tmux-mcp-newcomer-project-');

  for (const block of blocks) {
    const plan = PLANS[`${block.file}: ${block.key}`]!;
    if ('skip' in plan) continue;
    if ('check' in plan) {
      checkConfig(block, plan.check);
      continue;
    }
    await t.test(`${block.file}: ${block.key.slice(0, 70)}`, async (st) => {
      // Each block on a private tmux of its own (the README's default socket, in a folder of this test's).
      const tmuxDir = tempDir(st, 'tmux-mcp-newcomer-tmux-');
      const env = scrubbedEnv({
        HOME: home,
        TMUX_TMPDIR: tmuxDir,
        PATH: `${dirname(bin)}:${process.env.PATH}`,
        ...(process.env.LIBTMUX_TMUX_BIN ? { LIBTMUX_TMUX_BIN: process.env.LIBTMUX_TMUX_BIN } : {}),
      });
      st.after(() => void spawnSync(TMUX_BIN, ['-L', 'libtmux-mcp', 'kill-server'], { env, stdio: 'ignore' }));
      const script = await edited(block, plan.edits);
      if (plan.run === 'script') {
        const cwd = plan.cwd === 'clone' ? ROOT : project;
        const ran = spawnSync('bash', ['-e', '-c', script], {
          cwd,
          env,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 120_000,
        });
        assert.equal(ran.status, 0, `${block.key}\n--- stdout\n${ran.stdout}\n--- stderr\n${ran.stderr}`);
        plan.after?.(home, ran.stdout + ran.stderr);
        return;
      }
      // A server that keeps running: up when its banner says so, then stopped as a service manager stops it.
      const server = spawn('bash', ['-e', '-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let said = '';
      server.stdout!.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
      server.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
      const closed = new Promise((resolve) => server.on('close', resolve));
      try {
        const url = await until(`the banner of: ${block.key}`, () => plan.until.exec(said)?.[1], 30_000);
        await plan.after?.(home, url);
      } finally {
        process.kill(-server.pid!, 'SIGTERM');
        await closed;
      }
    });
  }
});
