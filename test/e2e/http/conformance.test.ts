/**
 * The official conformance suite (test/conformance/suite.ts: 0.2.0-alpha.12, on Node 22) against
 * `tmux-mcp --http` with a token, in each profile and for both requirement sets it freezes
 * (2025-11-25 and 2026-07-28): every scenario that applies passes, every check in it that counts
 * passes, and each one that does not apply or count says why (test/conformance/run.ts).
 * `npm run conformance` prints the whole table.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ERAS, runConformance } from '../../conformance/run.js';
import { SUITE_VERSION } from '../../conformance/suite.js';

/** What must apply, and so run and pass, in every profile. */
const ALWAYS: Record<(typeof ERAS)[number], string[]> = {
  '2025-11-25': ['server-initialize', 'ping', 'tools-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'],
  '2026-07-28': ['server-stateless', 'tools-list', 'server-sse-multiple-streams', 'dns-rebinding-protection', 'caching'],
};

for (const profile of ['libtmux', 'python', 'julia']) {
  test(`conformance ${SUITE_VERSION}, ${profile} profile: in 2025-11-25 and 2026-07-28, every applicable scenario passes over HTTP with a token`, async () => {
    const { capabilities, results } = await runConformance({ profile });
    assert.ok(capabilities.tools, 'tools are advertised');
    for (const era of ERAS) {
      const ran = results.filter((result) => result.era === era);
      assert.ok(ran.length > 0, `the ${era} requirement set has scenarios`);
      const applicable = ran.filter((result) => result.notApplicable === undefined);
      for (const must of ALWAYS[era])
        assert.ok(
          applicable.some((result) => result.scenario === must),
          `${era}: ${must} applies and ran`,
        );
      const failed = applicable
        .filter((result) => !result.passed)
        .map((result) => `${era} ${result.scenario}: ${result.failures?.join('; ') || 'no check passed'}`);
      assert.deepEqual(failed, []);
      assert.ok(!ran.some((result) => result.notApplicable?.startsWith('not classified')), `${era}: every scenario is classified`);
    }
  });
}
