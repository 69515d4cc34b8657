/**
 * Holds the BUILT server's tools/list under --profile julia against contracts/julia.json: the
 * default set, all 11 tools in --tool order, and with --caller-pane (where `target` leaves every
 * `required` list, as the contract's schemaRules say). Descriptions are ours; everything else must
 * be equal, `required` arrays in order.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { withoutDescriptions } from '../../src/mcp/tools/schema.js';
import { startMcp } from '../fixture/mcp.js';
import { privateTmux } from '../fixture/tmux.js';

const contract = JSON.parse(readFileSync(new URL('./julia.json', import.meta.url), 'utf8'));
const COMPARED = ['name', 'title', 'inputSchema', 'outputSchema', 'annotations', '_meta', 'execution'] as const;
const ALL = contract.profile.enabledToolsForRunOperationsItems as string[];
/** A --tool order unlike the contract's, to see that it is kept. */
const SHUFFLED = [...ALL].reverse();

type Listed = Record<string, unknown> & { name: string; description?: string; inputSchema: Record<string, unknown> };

async function listed(t: Parameters<typeof privateTmux>[0], args: string[]): Promise<Listed[]> {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env, args: ['--profile', 'julia', ...args.map((a) => a.replace('$PANE', pane))] });
  return (await mcp.client.listTools()).tools as Listed[];
}

/** The contract's tool, as it reads with `tools` enabled (run_operations' branches follow them) and maybe a caller pane. */
function expected(name: string, tools: readonly string[], caller: boolean): Record<string, unknown> {
  const tool = structuredClone(contract.tools.find((t: Listed) => t.name === name));
  if (name === 'run_operations') {
    const branches = tool.inputSchema.properties.operations.items.oneOf as Array<{ properties: { tool: { const: string } } }>;
    tool.inputSchema.properties.operations.items.oneOf = tools
      .filter((n) => n !== 'run_operations')
      .map((n) => branches.find((b) => b.properties.tool.const === n));
  }
  if (caller) dropTarget(tool.inputSchema);
  return tool;
}

/** schemaRules: with a caller pane, `target` is in no `required` list (run_operations' branches included). */
function dropTarget(schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach(dropTarget);
  if (schema === null || typeof schema !== 'object') return;
  const object = schema as Record<string, unknown>;
  if (Array.isArray(object.required) && (object.properties as Record<string, unknown> | undefined)?.target) {
    object.required = (object.required as string[]).filter((key) => key !== 'target');
  }
  Object.values(object).forEach(dropTarget);
}

function differences(ours: Listed[], names: readonly string[], caller: boolean): string[] {
  const problems: string[] = [];
  assert.deepEqual(
    ours.map((t) => t.name),
    [...names],
    'tools/list order',
  );
  for (const tool of ours) {
    const want = expected(tool.name, names, caller);
    for (const key of COMPARED) {
      const a = withoutDescriptions(tool[key]);
      const b = withoutDescriptions(want[key]);
      if (!isDeepStrictEqual(a, b))
        problems.push(
          `${tool.name}.${key}\n  ours:     ${JSON.stringify(a)?.slice(0, 800)}\n  contract: ${JSON.stringify(b)?.slice(0, 800)}`,
        );
    }
    if (typeof tool.description !== 'string' || tool.description.length < 40)
      problems.push(`${tool.name}: description missing or too short`);
  }
  return problems;
}

test('julia: the default set is list_panes, capture_pane, send_keys, equal to the contract', async (t) => {
  const ours = await listed(t, []);
  assert.deepEqual(differences(ours, contract.defaultEnabledTools, false), []);
});

test('julia: all 11 tools, in --tool order, equal to the contract (run_operations branches in that order)', async (t) => {
  const ours = await listed(
    t,
    SHUFFLED.flatMap((name) => ['--tool', name]),
  );
  assert.equal(ours.length, 11);
  assert.deepEqual(differences(ours, SHUFFLED, false), []);
});

test('julia: with --caller-pane, target leaves every required list and stays a property', async (t) => {
  const ours = await listed(t, ['--caller-pane', '$PANE', ...ALL.flatMap((name) => ['--tool', name])]);
  assert.deepEqual(differences(ours, ALL, true), []);
  const capture = ours.find((tool) => tool.name === 'capture_pane')!;
  assert.deepEqual(capture.inputSchema.required, []);
  assert.ok((capture.inputSchema.properties as Record<string, unknown>).target, 'target stays a property');
});

test('julia: server info and capabilities as the contract says', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env, args: ['--profile', 'julia'] });
  assert.equal(mcp.client.getServerVersion()?.name, contract.serverInfo.name);
  assert.equal(mcp.client.getServerVersion()?.version, contract.serverInfo.version);
  const capabilities = mcp.client.getServerCapabilities() ?? {};
  assert.deepEqual(Object.keys(capabilities), ['tools']);
});
