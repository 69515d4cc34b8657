/**
 * The tests' own schema check (test/fixture/schema-check.ts) refuses what the contracts refuse: every
 * e2e result passes through it, so a check that let anything through would make every test weaker.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { contractCheck, profileOf, schemaCheck } from '../fixture/schema-check.js';

const session = { createdAt: 1, id: '$0', isAttached: false, name: 'main', ref: 'r', windowCount: 1 };

test('a result that breaks its contract is refused, naming the tool; a valid one and an error without structuredContent pass', () => {
  const check = contractCheck('libtmux');
  check('list_sessions', { structuredContent: { sessions: [session] } });
  check('list_sessions', { isError: true });
  assert.throws(
    () => check('list_sessions', { structuredContent: { sessions: [{ ...session, windowCount: '1' }] } }),
    /list_sessions structuredContent violates/,
  );
  assert.throws(() => check('list_sessions', { structuredContent: { sessions: [session], extra: true } }), /additional/);
  assert.throws(() => check('list_sessions', { structuredContent: {} }), /sessions/);
});

test("the contracts' byte bound on strings is held in UTF-8 bytes, not characters", () => {
  const check = schemaCheck({ type: 'string', 'x-libtmux-max-utf8-bytes': 4 });
  assert.equal(check('abcd'), undefined);
  assert.notEqual(check('ééé'), undefined, 'three characters, six bytes');
});

test('every profile has a contract to check against, chosen as the CLI chooses the profile', () => {
  assert.equal(profileOf([], {}), 'libtmux');
  assert.equal(profileOf(['--profile', 'julia'], {}), 'julia');
  assert.equal(profileOf([], { TMUX_MCP_PROFILE: 'python' }), 'python');
  for (const profile of ['libtmux', 'python', 'julia']) assert.equal(typeof contractCheck(profile), 'function');
});

test("no test checks results with the server's own validator", () => {
  const root = new URL('../', import.meta.url);
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  const readers = files.filter((file) => /from '[./]*src\/mcp\/(.*\/)?validation\.js'/.test(readFileSync(new URL(file, root), 'utf8')));
  assert.deepEqual(readers, []);
});
