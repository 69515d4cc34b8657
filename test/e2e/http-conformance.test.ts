/**
 * The official conformance suite (0.1.13) against `tmux-mcp --http` with a token: every server
 * scenario whose capability the server advertises passes. test/conformance/run.ts says why the
 * others do not apply; `npm run conformance` prints the whole table.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runConformance } from '../conformance/run.js';

test('conformance 0.1.13: every applicable server scenario passes over HTTP with a token', async () => {
  const { capabilities, results } = await runConformance();
  const applicable = results.filter((result) => result.notApplicable === undefined);
  assert.ok(capabilities.tools, 'tools are advertised');
  for (const must of ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']) {
    assert.ok(applicable.some((result) => result.scenario === must), `${must} ran`);
  }
  const failed = applicable.filter((result) => !result.passed).map((result) => `${result.scenario}: ${result.failures?.join('; ') || 'no check passed'}`);
  assert.deepEqual(failed, []);
  assert.ok(!results.some((result) => result.notApplicable?.startsWith('not classified')), 'every scenario is classified');
});
