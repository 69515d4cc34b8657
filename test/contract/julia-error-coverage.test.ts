/**
 * Which test produces each error code the julia contract lists per tool (errorCodesByTool), through
 * the SDK client against real tmux (test/e2e/julia/tools.test.ts and julia/faults.test.ts, in the
 * 2026-07-28 era; the error envelope is the same in 2025-11-25, which julia/era-2025-11-25.test.ts checks).
 *
 * The table must name exactly the contract's tool x code pairs, and each test it names must exist
 * in its suite and assert that code. `all` stands for every tool of the contract.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const contract = JSON.parse(readFileSync(new URL('./julia.json', import.meta.url), 'utf8'));
const BY_TOOL: Record<string, string[]> = contract.errorCodesByTool;
const TOOLS = Object.keys(BY_TOOL);
const PANE_TOOLS = ['capture_pane', 'send_keys', 'paste_text', 'resize_pane', 'kill_pane', 'wait_for_text', 'send_keys_and_wait'];

interface Producer {
  /** test/e2e/julia/<suite>.test.ts */
  readonly suite: 'tools' | 'faults';
  /** The test's title. */
  readonly test: string;
  /** Codes it produces, and for which tools. */
  readonly codes: Record<string, readonly string[] | 'all'>;
}

const PRODUCERS: readonly Producer[] = [
  {
    suite: 'tools',
    test: 'julia: bad arguments, a missing target and create_session without --allow-create are refused before tmux',
    codes: { invalid_arguments: 'all', target_required: PANE_TOOLS, creation_denied: ['create_session'] },
  },
  {
    suite: 'tools',
    test: 'julia: --caller-pane is the default target; --allow-pane narrows what may be listed and targeted',
    codes: { target_denied: PANE_TOOLS },
  },
  {
    suite: 'tools',
    test: 'julia: run_operations runs in order, stops at the first failure, and checks every item first',
    codes: { tool_denied: ['run_operations'] },
  },
  {
    suite: 'tools',
    test: 'julia: create_session and teardown_session own what they make, and nothing else',
    codes: { ownership_required: ['teardown_session'], owned_limit: ['create_session'] },
  },
  {
    suite: 'faults',
    test: 'julia: a tmux restart makes every target stale; nothing is typed, resized or killed',
    codes: { stale_target: [...PANE_TOOLS, 'teardown_session'] },
  },
  {
    suite: 'faults',
    test: 'julia: a tmux server replaced right after creating the session makes create_session stale_target',
    codes: { stale_target: ['create_session'] },
  },
  {
    suite: 'faults',
    test: 'julia: a target of another tmux server is wrong_server',
    codes: { wrong_server: PANE_TOOLS },
  },
  {
    suite: 'faults',
    test: 'julia: a server started on the same socket under another path is another server: teardown_session is wrong_server',
    codes: { wrong_server: ['teardown_session'] },
  },
  {
    suite: 'faults',
    test: 'julia: a stopped tmux server runs every tool into its deadline',
    codes: { deadline: 'all' },
  },
  {
    suite: 'faults',
    test: 'julia: more calls than --capacity is JSON-RPC -32000; 16 calls still running make the next one busy',
    codes: { busy: 'all' },
  },
  {
    // A client's own notifications/cancelled drops the answer (the contract's protocol says so, and
    // the SDK does it in both eras), so `cancelled` is seen when the server stops and ends its calls.
    suite: 'faults',
    test: 'julia: stopping the server cancels the calls running (cancelled), refuses those still queued (closed), and answers both',
    codes: { cancelled: 'all', closed: 'all' },
  },
  {
    suite: 'faults',
    test: 'julia: a tmux that floods stderr is output_limit, one that fails is operation_failed, and an error over the result limit is result_limit, for every tool',
    codes: { output_limit: 'all', operation_failed: 'all', result_limit: 'all' },
  },
  {
    suite: 'faults',
    test: 'julia: a result over the limit is replaced by result_limit, batches keep what completed',
    codes: { result_limit: ['list_panes', 'capture_pane', 'wait_for_text', 'send_keys_and_wait', 'run_operations'] },
  },
  {
    suite: 'faults',
    test: 'julia: a pane that goes away during a wait is observation_lost',
    codes: { observation_lost: ['wait_for_text', 'send_keys_and_wait'] },
  },
  {
    suite: 'faults',
    test: 'julia: a screen larger than the capture limit is output_limit for wait_for_text',
    codes: { output_limit: ['wait_for_text'] },
  },
];

/** tool x code -> the tests that produce it. */
function table(): Map<string, string[]> {
  const pairs = new Map<string, string[]>();
  for (const producer of PRODUCERS) {
    for (const [code, tools] of Object.entries(producer.codes)) {
      for (const tool of tools === 'all' ? TOOLS.filter((name) => BY_TOOL[name]!.includes(code)) : tools) {
        const key = `${tool} ${code}`;
        pairs.set(key, [...(pairs.get(key) ?? []), producer.test]);
      }
    }
  }
  return pairs;
}

test('julia: every error code the contract lists for a tool is produced by a named e2e test', () => {
  const listed = TOOLS.flatMap((tool) => BY_TOOL[tool]!.map((code) => `${tool} ${code}`)).sort();
  const produced = [...table().keys()].sort();
  assert.equal(listed.length, 125);
  assert.deepEqual(
    listed.filter((pair) => !produced.includes(pair)),
    [],
    'pairs no test produces',
  );
  assert.deepEqual(
    produced.filter((pair) => !listed.includes(pair)),
    [],
    'pairs the contract does not list',
  );
});

test('julia: each test the coverage table names exists in its suite and asserts its codes', () => {
  const sources = new Map<string, string>();
  const source = (suite: string) => {
    if (!sources.has(suite)) sources.set(suite, readFileSync(new URL(`../e2e/julia/${suite}.test.ts`, import.meta.url), 'utf8'));
    return sources.get(suite)!;
  };
  for (const producer of PRODUCERS) {
    const text = source(producer.suite);
    const start = text.indexOf(`test('${producer.test}'`);
    assert.notEqual(start, -1, `no test "${producer.test}" in julia/${producer.suite}.test.ts`);
    const next = text.indexOf('\ntest(', start + 1);
    const body = text.slice(start, next === -1 ? undefined : next);
    for (const code of Object.keys(producer.codes)) assert.match(body, new RegExp(`'${code}'`), `"${producer.test}" never names ${code}`);
  }
});
