/**
 * src/tmux/versions.ts and the row formats against the very tmux the suite runs: what it prints for
 * a row of odd bytes reads back exact, and versions order and gate as documented.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { rowFormat } from '../../src/tmux/formats.js';
import { atLeast, newerThanTested, parseVersion, tooOld, unescapePrinted } from '../../src/tmux/versions.js';
import { scrubbedEnv, TMUX_BIN } from '../fixture/tmux.js';

test('versions: parsed, ordered by release and fix letter, the tested range and its edges', () => {
  assert.deepEqual(parseVersion('3.5a'), { text: '3.5a', major: 3, minor: 5, fix: 1 });
  assert.deepEqual(parseVersion('next-3.6'), { text: 'next-3.6', major: 3, minor: 6, fix: 0 });
  assert.equal(parseVersion('master').major, Number.POSITIVE_INFINITY, 'a build from git is newer than any release');
  assert.equal(tooOld(parseVersion('3.2a')), true);
  assert.equal(tooOld(parseVersion('3.3')), true, '3.3 is older than 3.3a, the oldest tested');
  assert.equal(tooOld(parseVersion('3.3a')), false);
  assert.equal(newerThanTested(parseVersion('3.5a')), false);
  assert.equal(newerThanTested(parseVersion('3.5b')), true);
  assert.equal(newerThanTested(parseVersion('3.6')), true);
  assert.equal(newerThanTested(parseVersion('master')), true);
  assert.equal(atLeast(parseVersion('3.4'), 3, 4), true);
});

test('printed fields: a doubled backslash is one, vis escapes are bytes, nothing else changes', () => {
  assert.equal(unescapePrinted('plain text, no escape'), 'plain text, no escape');
  assert.equal(unescapePrinted('a\\\\033b'), 'a\\033b', 'a backslash tmux doubled, then digits: text');
  assert.equal(unescapePrinted('a\\033b\\r\\001'), 'a\u001bb\r\u0001');
  assert.equal(unescapePrinted('\\303\\251t\\303\\251'), 'été', 'octal bytes of one UTF-8 character');
  assert.equal(unescapePrinted('bad \\377 byte'), 'bad \ufffd byte');
  assert.equal(unescapePrinted('tab\there'), 'tab\there', 'tabs and newlines come raw from every version');
});

test('rows of the running tmux: a path with a tab, a backslash before digits and a control byte reads back exact', (t) => {
  const base = mkdtempSync(join(tmpdir(), 'tmux-mcp-rows-'));
  t.after(() => {
    try {
      execFileSync(TMUX_BIN, ['-S', join(base, 'sock'), 'kill-server'], { stdio: 'ignore', env: scrubbedEnv() });
    } catch {
      // already gone
    }
    rmSync(base, { recursive: true, force: true });
  });
  const odd = join(base, 'odd\tdir\\033\u0001x é');
  mkdirSync(odd);
  const row = rowFormat({ path: 'pane_current_path', name: 'session_name', width: 'pane_width' });
  const tmux = (...args: string[]) =>
    execFileSync(TMUX_BIN, ['-S', join(base, 'sock'), '-f', '/dev/null', ...args], { encoding: 'utf8', env: scrubbedEnv() });
  tmux('new-session', '-d', '-s', 'rows', '-c', odd, '-x', '80', '-y', '20', 'sleep 30');
  const printed = tmux('list-panes', '-a', '-F', row.format);
  const lines = printed.endsWith('\n') ? printed.slice(0, -1).split('\n') : printed.split('\n');
  assert.deepEqual(row.parse(lines), [{ path: odd, name: 'rows', width: '80' }]);
});
