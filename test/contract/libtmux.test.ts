/**
 * Holds the BUILT server's tools/list against the libtmux contract: every tool's name, title, input
 * and output schemas, annotations and `_meta` equal, descriptions aside; and every description
 * present and non-empty (ours to write). The contracts are kept in test/contract/, byte for byte
 * the published files, so a clone tests itself wherever it is checked out.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { withoutDescriptions } from '../../src/mcp/tools/schema.js';
import { startMcp } from '../fixture/mcp.js';
import { privateTmux } from '../fixture/tmux.js';

const CONTRACT_URL = new URL('./libtmux.json', import.meta.url);
const contract = JSON.parse(readFileSync(CONTRACT_URL, 'utf8'));
const ALL_TOOLSETS = { LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown' };
const COMPARED = ['name', 'title', 'inputSchema', 'outputSchema', 'annotations', '_meta'] as const;

interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

async function listAll(t: Parameters<typeof privateTmux>[0]): Promise<ListedTool[]> {
  const tmux = privateTmux(t);
  const mcp = await startMcp(t, { env: { ...tmux.env, ...ALL_TOOLSETS } });
  return (await mcp.client.listTools()).tools as ListedTool[];
}

/** Every `properties` entry in a schema, wherever it sits, with its path. */
function properties(schema: unknown, path: string, out: Array<[string, Record<string, unknown>]> = []) {
  if (Array.isArray(schema)) schema.forEach((item, i) => properties(item, `${path}[${i}]`, out));
  else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && value && typeof value === 'object') {
        for (const [name, prop] of Object.entries(value)) {
          out.push([`${path}.${name}`, prop as Record<string, unknown>]);
          properties(prop, `${path}.${name}`, out);
        }
      } else properties(value, `${path}/${key}`, out);
    }
  }
  return out;
}

test('tools/list equals the libtmux contract, descriptions aside, for all 45 tools', async (t) => {
  const listed = await listAll(t);
  const ours = new Map(listed.map((tool) => [tool.name, tool]));
  const theirs = new Map<string, ListedTool>(contract.tools.map((tool: ListedTool) => [tool.name, tool]));

  const extra = [...ours.keys()].filter((name) => !theirs.has(name));
  assert.deepEqual(extra, [], `tools outside the contract: ${extra.join(', ')}`);

  const differences: string[] = [];
  for (const [name, want] of theirs) {
    const have = ours.get(name);
    if (!have) continue;
    for (const key of COMPARED) {
      const a = withoutDescriptions(have[key]);
      const b = withoutDescriptions(want[key]);
      if (!isDeepStrictEqual(a, b)) {
        differences.push(
          `${name}.${key}\n    ours:     ${JSON.stringify(a)?.slice(0, 600)}\n    contract: ${JSON.stringify(b)?.slice(0, 600)}`,
        );
      }
    }
  }
  assert.deepEqual(differences, [], `tools that differ from the contract:\n  ${differences.join('\n  ')}`);

  const missing = [...theirs.keys()].filter((name) => !ours.has(name)).sort();
  assert.equal(
    `${ours.size}/${theirs.size}`,
    `${theirs.size}/${theirs.size}`,
    `${missing.length} contract tools are not served yet: ${missing.join(', ')}`,
  );
});

test('every tool and every input property carries a description of its own', async (t) => {
  const listed = await listAll(t);
  const problems: string[] = [];
  for (const tool of listed) {
    if (typeof tool.description !== 'string' || tool.description.trim().length < 40) {
      problems.push(`${tool.name}: tool description missing or too short to help`);
    }
    for (const [path, prop] of properties(tool.inputSchema, tool.name)) {
      const description = prop.description;
      if (typeof description !== 'string' || description.trim() === '') problems.push(`${path}: no description`);
      else if (/^Caller-controlled /.test(description)) problems.push(`${path}: placeholder description "${description}"`);
    }
  }
  assert.deepEqual(problems, []);
});

test('server capabilities and resources match the contract', async (t) => {
  const tmux = privateTmux(t);
  const mcp = await startMcp(t, { env: { ...tmux.env, ...ALL_TOOLSETS } });
  const capabilities = mcp.client.getServerCapabilities();
  assert.deepEqual(capabilities?.tools, contract.capabilities.tools);
  assert.deepEqual(capabilities?.resources, contract.capabilities.resources);
  const info = mcp.client.getServerVersion();
  assert.equal(info?.name, contract.serverInfo.name);
  assert.equal(info?.title, contract.serverInfo.title);

  const { resources } = await mcp.client.listResources();
  assert.deepEqual(
    resources.map(({ description: _description, ...rest }) => rest),
    contract.resources,
  );
  const { resourceTemplates } = await mcp.client.listResourceTemplates();
  assert.deepEqual(resourceTemplates, contract.resourceTemplates);
});
