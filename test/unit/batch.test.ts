/**
 * The generic serial batch runner on its own: budget enforcement after every row (a huge result
 * gives way, later small ones still fit), the truncatedBytes arithmetic, the wire-cap shrink step,
 * stop/continue and whole-call rejections. The nested caller here returns canned results; the
 * e2e tests run the same runner against real tmux.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { runSerialBatch, shrinkBatchOutcome, type BatchReport } from '../../src/mcp/tools/batch.js';
import type { ToolCall } from '../../src/mcp/tools/tool.js';

function ok(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: { text } };
}

function caller(answers: Record<string, (args: any) => CallToolResult>, calls: string[] = []): ToolCall<unknown> {
  return {
    ctx: undefined,
    signal: new AbortController().signal,
    progress: async () => {},
    nested: {
      names: Object.keys(answers),
      async call(name, args) {
        calls.push(name);
        return answers[name]!(args);
      },
    },
  };
}

const options = { onError: 'stop' as const, maxOperations: 16, label: 'Batch', budgetBytes: 10_000 };
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

test('a result that would push the batch over its budget is dropped, and later small ones still fit', async () => {
  const call = caller({ small: () => ok('s'.repeat(100)), huge: () => ok('h'.repeat(20_000)) });
  const outcome = await runSerialBatch([{ tool: 'small' }, { tool: 'huge' }, { tool: 'small' }], call, options);
  const report = outcome.structured as unknown as BatchReport;
  assert.deepEqual(
    report.results.map((row) => row.resultTruncated),
    [false, true, false],
  );
  assert.equal(report.results[1]!.result, null);
  assert.equal(report.results[1]!.success, true, 'metadata stays');
  assert.equal(report.truncated, true);
  const hugeEnvelope = {
    content: [{ type: 'text', text: 'h'.repeat(20_000) }],
    structuredContent: { text: 'h'.repeat(20_000) },
    isError: false,
  };
  assert.equal(report.truncatedBytes, bytes(hugeEnvelope) - 4, 'encoded bytes of the dropped result minus the null left behind');
  assert.ok(bytes(report) <= options.budgetBytes);
  assert.match(outcome.text!, /1 nested result\(s\) dropped/);
});

test('when the last rows all fit but the total does not, the LAST kept result goes first', async () => {
  const call = caller({ mid: () => ok('m'.repeat(3_000)) });
  const report = (
    await runSerialBatch(
      Array.from({ length: 4 }, () => ({ tool: 'mid' })),
      call,
      options,
    )
  ).structured as unknown as BatchReport;
  // Each envelope is ~6 KB; the budget holds one.
  assert.deepEqual(
    report.results.map((row) => row.result !== null),
    [true, false, false, false],
  );
  assert.equal(report.succeeded, 4);
});

test('shrinking for the wire drops the last kept result and updates the totals', async () => {
  const call = caller({ a: () => ok('a'), b: () => ok('b') });
  const outcome = await runSerialBatch([{ tool: 'a' }, { tool: 'b' }], call, options);
  const once = shrinkBatchOutcome(outcome, 'Batch')!;
  const report = once.structured as unknown as BatchReport;
  assert.deepEqual(
    report.results.map((row) => row.result === null),
    [false, true],
  );
  assert.equal(report.truncated, true);
  assert.ok(report.truncatedBytes > 0);
  const original = outcome.structured as unknown as BatchReport;
  assert.equal(original.results[1]!.result !== null, true, 'the original outcome is left alone');
  const twice = shrinkBatchOutcome(once, 'Batch')!;
  assert.deepEqual(
    (twice.structured as unknown as BatchReport).results.map((row) => row.result),
    [null, null],
  );
  assert.equal(shrinkBatchOutcome(twice, 'Batch'), undefined, 'nothing more to drop');
});

test('stop records stoppedAt and runs nothing after it; continue runs everything', async () => {
  const answers = { good: () => ok('g'), bad: (): CallToolResult => ({ content: [{ type: 'text', text: 'it broke' }], isError: true }) };
  const calls: string[] = [];
  const stopped = (await runSerialBatch([{ tool: 'good' }, { tool: 'bad' }, { tool: 'good' }], caller(answers, calls), options))
    .structured as unknown as BatchReport;
  assert.deepEqual(calls, ['good', 'bad']);
  assert.equal(stopped.stoppedAt, 1);
  assert.deepEqual(stopped.results[1], {
    index: 1,
    tool: 'bad',
    success: false,
    error: 'it broke',
    result: { content: [{ type: 'text', text: 'it broke' }], structuredContent: null, isError: true },
    resultTruncated: false,
  });
  const continued = (
    await runSerialBatch([{ tool: 'good' }, { tool: 'bad' }, { tool: 'good' }], caller(answers), { ...options, onError: 'continue' })
  ).structured as unknown as BatchReport;
  assert.equal(continued.stoppedAt, null);
  assert.deepEqual([continued.succeeded, continued.failed], [2, 1]);
});

test('a tool outside the reach rejects the whole batch before any operation runs', async () => {
  const calls: string[] = [];
  await assert.rejects(
    runSerialBatch([{ tool: 'good' }, { tool: 'send_keys' }], caller({ good: () => ok('g') }, calls), options),
    /operations\[1\]: "send_keys" is outside what this batch may call, so nothing ran/,
  );
  assert.deepEqual(calls, []);
  await assert.rejects(runSerialBatch([], caller({}), options), /1 to 16/);
});

test('the byte count a batch hands on equals the encoded report, with and without dropped results', async () => {
  const call = caller({
    small: () => ok('s\u00e9\u6f22\ud83d\ude00"\\\n'.repeat(10)),
    huge: () => ok('h'.repeat(20_000)),
    fails: () => ({ content: [{ type: 'text', text: 'no such pane' }], isError: true }),
  });
  for (const tools of [['small'], ['small', 'huge', 'small'], ['small', 'fails', 'small']]) {
    const outcome = await runSerialBatch(
      tools.map((tool) => ({ tool })),
      call,
      { ...options, onError: 'continue' },
    );
    assert.equal(outcome.structuredBytes, bytes(outcome.structured), tools.join(','));
  }
});

test('operations run one after another: each starts once the one before it answered', async () => {
  const log: string[] = [];
  const call = caller({ read: () => ok('unused') });
  let inFlight = 0;
  let most = 0;
  call.nested!.call = async (_name, args) => {
    most = Math.max(most, ++inFlight);
    const pane = (args as { pane: string }).pane;
    log.push(`start ${pane}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    log.push(`end ${pane}`);
    inFlight--;
    return ok(pane);
  };
  const outcome = await runSerialBatch(
    ['%1', '%2', '%3'].map((pane) => ({ tool: 'read', arguments: { pane } })),
    call,
    options,
  );
  assert.equal(most, 1);
  assert.deepEqual(log, ['start %1', 'end %1', 'start %2', 'end %2', 'start %3', 'end %3']);
  const report = outcome.structured as unknown as BatchReport;
  assert.deepEqual(
    report.results.map((row) => (row.result!.structuredContent as { text: string }).text),
    ['%1', '%2', '%3'],
  );
});
