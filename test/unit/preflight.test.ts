/**
 * scripts/preflight.mjs, which `npm test` runs first: with everything on PATH it passes silently;
 * with something missing it stops at once (exit 1) with one message naming it and the apt-get line
 * that installs it. PATHs are built of links to the real programs, leaving one out.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/preflight.mjs', import.meta.url));
const PROGRAMS = [
  'tmux',
  'bash',
  'python3',
  'sshd',
  'ssh',
  'ssh-keygen',
  'fish',
  'zsh',
  'direnv',
  'asciinema',
  'chromium',
  'script',
  'jq',
  'openssl',
];

function find(name: string): string {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  const found = dirs.map((dir) => join(dir, name)).find((file) => existsSync(file));
  assert.ok(found, `${name} is installed on this machine (the suite needs it)`);
  return found;
}

/** A folder of links to every program the suite needs but `leaveOut`; `replace` puts a script of its own in. */
function pathWithout(t: { after: (fn: () => void) => void }, leaveOut: string[], replace: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-preflight-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const name of PROGRAMS) {
    if (leaveOut.includes(name)) continue;
    if (replace[name]) writeFileSync(join(dir, name), replace[name], { mode: 0o755 });
    else symlinkSync(find(name), join(dir, name));
  }
  return dir;
}

function preflight(path: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: path };
  delete env.LIBTMUX_TMUX_BIN;
  return spawnSync(process.execPath, [SCRIPT], { env, encoding: 'utf8', timeout: 30_000 });
}

test('preflight: everything there, it passes without a word', (t) => {
  const run = preflight(pathWithout(t, []));
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
});

test('preflight: a PATH without sshd names it (and where it is, when it is only off PATH)', (t) => {
  const run = preflight(pathWithout(t, ['sshd']));
  assert.equal(run.status, 1);
  assert.match(run.stderr, /^npm test cannot start, missing or too old: sshd \(the loopback sshd of the remote-host tests\)/);
  if (existsSync('/usr/sbin/sshd')) assert.match(run.stderr, /it is at \/usr\/sbin\/sshd, but not on PATH; add its folder/);
  else assert.match(run.stderr, /apt-get install -y openssh-server/);
});

test('preflight: what is missing is named, with the one apt-get line that installs all of it', (t) => {
  const run = preflight(pathWithout(t, ['fish', 'asciinema', 'ssh-keygen']));
  assert.equal(run.status, 1);
  assert.equal(run.stdout, '');
  const lines = run.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 2, run.stderr);
  assert.match(lines[0]!, /ssh-keygen \(.*\); fish \(.*\); asciinema \(.*\)\.$/);
  assert.equal(lines[1], 'Install them (as root): apt-get install -y openssh-client fish asciinema');
});

test('preflight: a tmux older than 3.3a is named with its version', (t) => {
  const run = preflight(pathWithout(t, [], { tmux: '#!/bin/sh\necho "tmux 3.2a"\n' }));
  assert.equal(run.status, 1);
  assert.match(run.stderr, /tmux: it is tmux 3\.2a; the suite needs tmux 3\.3a or newer/);
  assert.match(run.stderr, /apt-get install -y tmux$/m);
});
