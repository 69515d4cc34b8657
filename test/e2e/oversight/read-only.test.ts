/**
 * --read-only (TMUX_MCP_READ_ONLY=1) in every profile: only the tools that only read are listed and
 * callable whatever the toolsets say, each exactly as its contract publishes it (annotations
 * included); a batch reaches only those; the banner says read-only; nothing changes in tmux.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { privateTmux, type PrivateTmux } from '../../fixture/tmux.js';
import { startMcp, type McpSession } from '../../fixture/mcp.js';
import { startPython } from '../../fixture/python.js';
import { startJulia, allToolArgs } from '../../fixture/julia.js';

type ContractTool = { name: string; description?: string; _meta?: Record<string, any> };
const contract = (profile: string): ContractTool[] =>
  JSON.parse(readFileSync(new URL(`../../contract/${profile}.json`, import.meta.url), 'utf8')).tools;
/** Descriptions are ours to write, at every depth; everything else is the contract. */
function withoutProse(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProse);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'description')
      .map(([key, item]) => [key, withoutProse(item)]),
  );
}

/** The listed tools, checked against the contract entry by entry (descriptions are ours to write). */
async function listedAgainst(mcp: McpSession, profile: string): Promise<string[]> {
  const published = new Map(contract(profile).map((tool) => [tool.name, withoutProse(tool)]));
  const { tools } = await mcp.client.listTools();
  for (const tool of tools)
    assert.deepEqual(withoutProse(tool), published.get(tool.name), `${tool.name} is listed as its contract publishes it`);
  return tools.map((tool) => tool.name).sort();
}

async function world(tmux: PrivateTmux): Promise<string> {
  return tmux.tmux('list-panes', '-a', '-F', '#{session_name} #{window_id} #{pane_id} #{pane_pid}');
}

test('libtmux: --read-only lists and runs the inspect tools only, whatever LIBTMUX_TOOLSETS says', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'work' });
  const before = await world(tmux);
  const inspect = contract('libtmux')
    .filter((tool) => tool._meta?.['com.git-pull.libtmux-mcp/capability']?.toolset === 'inspect')
    .map((tool) => tool.name)
    .sort();
  const mcp = await startMcp(t, {
    env: { ...tmux.env, LIBTMUX_TOOLSETS: 'manage,execute,teardown', LIBTMUX_TOOLS: 'send_keys' },
    args: ['--read-only'],
  });
  assert.deepEqual(await listedAgainst(mcp, 'libtmux'), inspect);
  // Once, with the one toolset it leaves: not the toolsets chosen (teardown among them) that it turned off.
  const banner = mcp.stderr().split('\n')[0]!;
  assert.match(banner, new RegExp(`, ${inspect.length} tools \\(read-only: toolset inspect\\)$`), banner);
  assert.equal(banner.split('read-only').length, 2, 'the banner says read-only once');
  assert.doesNotMatch(banner, /teardown|manage|execute|send_keys/);
  const report = JSON.parse(((await mcp.client.readResource({ uri: 'tmux://capabilities' })).contents[0] as { text: string }).text);
  assert.deepEqual(report.oversight, { readOnly: true, allowedSessions: [] }, 'tmux://capabilities says so too');
  assert.deepEqual(report.effectiveTools.sort(), inspect);

  await mcp.ok('capture_pane', { paneId: pane });
  await mcp.ok('list_sessions');
  // A wait reads: it leaves no mark of where it stopped in tmux either (waits across processes, input-mark.ts).
  assert.equal((await mcp.ok('wait_for_text', { paneId: pane, patterns: ['never'], timeoutMs: 100 })).outcome, 'timedOut');
  assert.equal((await tmux.tmux('show-options', '-p', '-t', pane)).trim(), '', 'no pane option set');
  for (const [tool, args] of [
    ['send_keys', { paneId: pane, keys: ['echo no'] }],
    ['kill_session', { session: 'work' }],
    ['create_session', { name: 'x' }],
  ] as const) {
    const result = await mcp.client
      .callTool({ name: tool, arguments: args })
      .catch((error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
    assert.equal(result.isError, true, tool);
    assert.match(JSON.stringify(result.content), /read-only/, `${tool} says why`);
  }
  // The batch's own reach is the read tools; its schema never offered more, and more is refused.
  const batch = await mcp.ok('call_read_tools_batch', { operations: [{ tool: 'list_panes' }, { tool: 'get_server_info' }] });
  assert.equal(batch.succeeded, 2);
  assert.equal(await world(tmux), before, 'nothing changed in tmux');
});

test('python: TMUX_MCP_READ_ONLY=1 lists the inspect tools only, and the batch reaches only those', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'work' });
  const before = await world(tmux);
  const inspect = contract('python')
    .filter((tool) => tool._meta?.fastmcp?.tags?.includes('inspect'))
    .map((tool) => tool.name)
    .sort();
  const mcp = await startPython(t, tmux.env, { TMUX_MCP_READ_ONLY: '1' });
  assert.deepEqual(await listedAgainst(mcp, 'python'), inspect);
  assert.match(mcp.stderr(), /read-only/);
  await mcp.ok('list_panes');
  assert.match(
    await mcp.fails('send_keys', { pane_id: pane, keys: 'echo no' }).catch((error: Error) => error.message),
    /this server runs read-only/,
  );
  const batch = await mcp.call('call_read_tools_batch', {
    operations: [{ tool: 'list_sessions' }, { tool: 'send_keys', arguments: { pane_id: pane, keys: 'echo no' } }],
  });
  assert.match(JSON.stringify(batch), /send_keys/);
  assert.doesNotMatch(await tmux.tmux('capture-pane', '-p', '-t', pane), /echo no/);
  assert.equal(await world(tmux), before);
});

test('julia: --read-only leaves list_panes, capture_pane and wait_for_text, whatever --tool enables', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'work' });
  const julia = await startJulia(t, tmux, { negotiation: 'auto', args: [...allToolArgs(), '--read-only'] });
  assert.deepEqual(await listedAgainst(julia.mcp, 'julia'), ['capture_pane', 'list_panes', 'wait_for_text']);
  assert.match(julia.mcp.stderr(), /read-only/);
  const target = await julia.target(pane);
  await julia.ok('capture_pane', { target });
  const refused = await julia.mcp.client.callTool({ name: 'send_keys', arguments: { target, keys: ['echo no'] } }).then(
    (result) => JSON.stringify(result),
    (error: Error) => error.message,
  );
  assert.match(refused, /send_keys/);
  assert.doesNotMatch(await tmux.tmux('capture-pane', '-p', '-t', pane), /echo no/);
});
