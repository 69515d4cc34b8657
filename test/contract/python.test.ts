/**
 * Holds the BUILT server's python profile against the python contract: tools/list,
 * resources/templates/list and prompts/list with all four toolsets on, every field equal except
 * descriptions (ours to write, and present); the capabilities and server name; and the default
 * toolsets (inspect, manage, execute) against the toolset tags the contract carries.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { withoutDescriptions } from '../../src/mcp/tools/schema.js';
import { startMcp } from '../fixture/mcp.js';
import { privateTmux } from '../fixture/tmux.js';

const contract = JSON.parse(readFileSync(new URL('./python.json', import.meta.url), 'utf8'));
const ALL_TOOLSETS = { LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown' };
const PROFILE = ['--profile', 'python'];

type Row = Record<string, unknown> & { name: string; description?: string };

/** Every difference between our rows and the contract's, keyed by name, descriptions aside. */
function differences(ours: readonly Row[], theirs: readonly Row[], keys: readonly string[]): string[] {
  const mine = new Map(ours.map((row) => [row.name, row]));
  const out: string[] = [];
  for (const want of theirs) {
    const have = mine.get(want.name);
    if (!have) {
      out.push(`${want.name}: missing`);
      continue;
    }
    for (const key of keys) {
      const a = withoutDescriptions(have[key]);
      const b = withoutDescriptions(want[key]);
      if (!isDeepStrictEqual(a, b))
        out.push(
          `${want.name}.${key}\n    ours:     ${JSON.stringify(a)?.slice(0, 800)}\n    contract: ${JSON.stringify(b)?.slice(0, 800)}`,
        );
    }
  }
  const names = new Set(theirs.map((row) => row.name));
  for (const row of ours) if (!names.has(row.name)) out.push(`${row.name}: not in the contract`);
  return out;
}

test('python: tools/list, resources/templates/list and prompts/list equal the contract, descriptions aside', async (t) => {
  const tmux = privateTmux(t);
  const mcp = await startMcp(t, { env: { ...tmux.env, ...ALL_TOOLSETS }, args: PROFILE });

  const tools = (await mcp.client.listTools()).tools as unknown as Row[];
  assert.deepEqual(differences(tools, contract.tools, ['name', 'title', 'inputSchema', 'outputSchema', 'annotations', '_meta']), []);
  for (const tool of tools)
    assert.ok(tool.description && tool.description.length > 80, `${tool.name} needs a description that says what it is for`);
  assert.equal(tools.length, 54);

  const templates = (await mcp.client.listResourceTemplates()).resourceTemplates as unknown as Row[];
  assert.deepEqual(differences(templates, contract.resourceTemplates, ['name', 'title', 'uriTemplate', 'mimeType', '_meta']), []);
  for (const template of templates) assert.ok(template.description, `${template.name} needs a description`);

  const prompts = (await mcp.client.listPrompts()).prompts as unknown as Row[];
  const promptRows = (rows: readonly Row[]) =>
    rows.map((row) => ({ ...row, arguments: (row.arguments as Row[]).map(({ name, required }) => ({ name, required })) }));
  assert.deepEqual(differences(promptRows(prompts), contract.prompts, ['name', 'arguments', '_meta']), []);
  for (const prompt of prompts) assert.ok(prompt.description, `${prompt.name} needs a description`);

  assert.deepEqual(mcp.client.getServerCapabilities(), contract.capabilities);
  const info = mcp.client.getServerVersion();
  assert.equal(info?.name, contract.serverInfo.name);
  assert.equal(info?.version, contract.serverInfo.version);
});

test('python: the default toolsets serve exactly the contract tools tagged inspect, manage or execute', async (t) => {
  const tmux = privateTmux(t);
  const mcp = await startMcp(t, { env: tmux.env, args: PROFILE });
  const listed = (await mcp.client.listTools()).tools.map((tool) => tool.name).sort();
  const expected = contract.tools
    .filter((tool: { _meta: { fastmcp: { tags: string[] } } }) =>
      tool._meta.fastmcp.tags.some((tag) => ['inspect', 'manage', 'execute'].includes(tag)),
    )
    .map((tool: Row) => tool.name)
    .sort();
  assert.deepEqual(listed, expected);
  assert.ok(!listed.includes('kill_server') && !listed.includes('kill_pane'), 'teardown is opt-in');
});
