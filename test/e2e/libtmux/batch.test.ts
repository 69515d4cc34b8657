/**
 * call_read_tools_batch end to end against a private tmux server: rows equal direct calls, stop and
 * continue, nested validation failures as rows, tools outside the batch's reach rejected before
 * anything runs, exclusions narrowing the batch, and the response staying under the
 * 1,000,000-byte wire cap when panes hold megabytes (measured on the real stdio wire).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { CLI, progressOnWire, startMcp, type McpSession } from '../../fixture/mcp.js';
import { privateTmux, type PrivateTmux } from '../../fixture/tmux.js';
import { contractCheck } from '../../fixture/schema-check.js';
import { ownSession, sharedMcp } from '../../fixture/shared.js';

const BATCH = 'call_read_tools_batch';
const WIRE_CAP = 1_000_000;

interface Row {
  index: number;
  tool: string;
  success: boolean;
  error: string | null;
  result: { content: Array<{ type: string; text: string }>; structuredContent: any; isError: boolean } | null;
  resultTruncated: boolean;
}
interface Report {
  results: Row[];
  onError: string;
  succeeded: number;
  failed: number;
  stoppedAt: number | null;
  truncated: boolean;
  truncatedBytes: number;
}

/** One tmux server and one MCP server for the tests without an environment of their own, each on a session of its own. */
const server = sharedMcp();

async function started(
  t: Parameters<typeof privateTmux>[0] & { after: (fn: () => Promise<void> | void) => void },
  env?: NodeJS.ProcessEnv,
) {
  let tmux: PrivateTmux;
  let mcp: McpSession;
  let pane: string;
  let session = 'alpha';
  if (env) {
    tmux = privateTmux(t);
    pane = await tmux.start({ session });
    mcp = await startMcp(t, { env: { ...tmux.env, ...env } });
  } else {
    ({ tmux, mcp } = await server());
    ({ pane, session } = await ownSession(t, tmux));
  }
  await tmux.typeAndWait(pane, 'echo batch-marker-$((6*7))');
  return { tmux, pane, mcp, session };
}

async function batch(mcp: McpSession, args: Record<string, unknown>): Promise<Report> {
  return mcp.ok<Report>(BATCH, args);
}

test('runs reads in order and each row holds exactly what the direct call answers', async (t) => {
  const { pane, mcp, session } = await started(t);
  const report = await batch(mcp, {
    operations: [
      { tool: 'list_sessions' },
      { tool: 'capture_pane', arguments: { paneId: pane } },
      { tool: 'list_panes', arguments: { session } },
    ],
  });
  assert.equal(report.onError, 'stop', 'onError defaults to stop');
  assert.deepEqual(
    {
      succeeded: report.succeeded,
      failed: report.failed,
      stoppedAt: report.stoppedAt,
      truncated: report.truncated,
      truncatedBytes: report.truncatedBytes,
    },
    { succeeded: 3, failed: 0, stoppedAt: null, truncated: false, truncatedBytes: 0 },
  );
  assert.deepEqual(
    report.results.map((row) => [row.index, row.tool, row.success, row.error, row.resultTruncated]),
    [
      [0, 'list_sessions', true, null, false],
      [1, 'capture_pane', true, null, false],
      [2, 'list_panes', true, null, false],
    ],
  );
  const capture = report.results[1]!.result!;
  assert.ok(capture.structuredContent.lines.includes('batch-marker-42'), capture.structuredContent.lines.join('\n'));

  // The same code path as a direct call: identical content and structured result.
  const direct = await mcp.call('capture_pane', { paneId: pane });
  assert.deepEqual(capture, { content: direct.content, structuredContent: direct.structuredContent, isError: false });
  const sessions = await mcp.call('list_sessions');
  assert.deepEqual(report.results[0]!.result, { content: sessions.content, structuredContent: sessions.structuredContent, isError: false });
});

test('onError stop ends at the first failure; continue runs every operation', async (t) => {
  const { pane, mcp } = await started(t);
  const operations = [
    { tool: 'list_sessions' },
    { tool: 'capture_pane', arguments: { paneId: '%999' } },
    { tool: 'capture_pane', arguments: { paneId: pane } },
  ];
  const directError = await mcp.fails('capture_pane', { paneId: '%999' });

  const stopped = await batch(mcp, { operations });
  assert.equal(stopped.stoppedAt, 1);
  assert.equal(stopped.results.length, 2, 'operations after the stop do not run');
  assert.deepEqual([stopped.succeeded, stopped.failed], [1, 1]);
  const failed = stopped.results[1]!;
  assert.equal(failed.success, false);
  assert.equal(failed.error, directError);
  assert.match(failed.error!, /%999/);
  assert.deepEqual(failed.result, { content: [{ type: 'text', text: directError }], structuredContent: null, isError: true });

  const continued = await batch(mcp, { operations, onError: 'continue' });
  assert.equal(continued.onError, 'continue');
  assert.equal(continued.stoppedAt, null);
  assert.deepEqual(
    continued.results.map((row) => row.success),
    [true, false, true],
  );
  assert.deepEqual([continued.succeeded, continued.failed], [2, 1]);
});

test('nested arguments are validated as in a direct call, and a bad one is a failed row', async (t) => {
  const { pane, mcp } = await started(t);
  const bad = [{ paneId: pane, maxLines: 5000 }, { paneId: pane, bogus: 1 }, {}, { paneId: pane, start: 'top' }];
  const report = await batch(mcp, {
    onError: 'continue',
    operations: [...bad.map((args) => ({ tool: 'capture_pane', arguments: args })), { tool: 'list_sessions', arguments: {} }],
  });
  for (const [i, args] of bad.entries()) {
    const row = report.results[i]!;
    assert.equal(row.success, false, `operations[${i}] should fail`);
    assert.equal(row.error, await mcp.fails('capture_pane', args), `operations[${i}] fails exactly as a direct call`);
  }
  assert.match(report.results[0]!.error!, /maxLines/);
  assert.match(report.results[1]!.error!, /unknown field "bogus"/);
  assert.match(report.results[2]!.error!, /paneId/);
  assert.equal(report.results[4]!.success, true, 'the good operation still ran');
  assert.deepEqual([report.succeeded, report.failed], [1, 4]);

  // Tools that take no arguments refuse stray ones the same way.
  const stray = await batch(mcp, { operations: [{ tool: 'list_sessions', arguments: { session: 'alpha' } }] });
  assert.equal(stray.stoppedAt, 0);
  assert.match(stray.results[0]!.error!, /unknown field "session"/);
});

test('tools outside the batch reach, and malformed batches, are rejected before anything runs', async (t) => {
  const { pane, mcp } = await started(t);
  for (const tool of ['send_keys', 'wait_for_text', 'kill_pane', BATCH, 'no_such_tool']) {
    const text = await mcp.fails(BATCH, { operations: [{ tool: 'list_sessions' }, { tool, arguments: { paneId: pane } }] });
    assert.match(text, new RegExp(`operations\\[1\\]: "${tool}" is outside what this batch may call`), text);
    assert.match(text, /capture_pane/, 'the error names what the batch may call');
  }
  assert.match(await mcp.fails(BATCH, { operations: [] }), /operations/);
  const seventeen = Array.from({ length: 17 }, () => ({ tool: 'list_sessions' }));
  assert.match(await mcp.fails(BATCH, { operations: seventeen }), /operations/);
  assert.match(await mcp.fails(BATCH, { operations: [{ tool: 'list_sessions', extra: true }] }), /unknown field "extra"/);
  assert.match(await mcp.fails(BATCH, { operations: [{ arguments: {} }] }), /tool/);
  assert.match(await mcp.fails(BATCH, { operations: [{ tool: 'list_sessions', arguments: [] }] }), /arguments/);
  assert.match(await mcp.fails(BATCH, { operations: [{ tool: 'list_sessions' }], onError: 'ignore' }), /onError/);
  const sixteen = await batch(mcp, { operations: Array.from({ length: 16 }, () => ({ tool: 'list_sessions' })) });
  assert.equal(sixteen.succeeded, 16);
});

test('the batch schema and reach follow the nested tools that exist and are not excluded', async (t) => {
  const { pane, mcp } = await started(t, { LIBTMUX_EXCLUDE_TOOLS: 'list_sessions,capture_since' });
  const { tools } = await mcp.client.listTools();
  const tool = tools.find((candidate) => candidate.name === BATCH)!;
  const branches = (tool.inputSchema as any).properties.operations.items.oneOf as any[];
  const names = branches.map((branch) => branch.properties.tool.const);
  assert.ok(!names.includes('list_sessions') && !names.includes('capture_since'), names.join(','));
  assert.ok(names.includes('capture_pane') && names.includes('list_panes'));
  assert.deepEqual(names, [...names].sort());
  const row = (tool._meta as any)['com.git-pull.libtmux-mcp/capability'];
  assert.deepEqual(row.nestedAuthority, names);
  assert.deepEqual(row.inputSchema, tool.inputSchema);
  // Each branch's arguments are that tool's own inputSchema (with a description added).
  const capture = tools.find((candidate) => candidate.name === 'capture_pane')!;
  const { description: _d, ...captureArgs } = branches.find((b) => b.properties.tool.const === 'capture_pane').properties.arguments;
  const { description: _e, ...captureInput } = capture.inputSchema as any;
  assert.deepEqual(captureArgs, captureInput);

  assert.match(await mcp.fails(BATCH, { operations: [{ tool: 'list_sessions' }] }), /"list_sessions" is outside/);
  const report = await batch(mcp, { operations: [{ tool: 'capture_pane', arguments: { paneId: pane } }] });
  assert.equal(report.succeeded, 1);
});

test('a batch keeps its reach when its nested tools are not listed', async (t) => {
  const { pane, mcp } = await started(t, { LIBTMUX_TOOLSETS: '', LIBTMUX_TOOLS: BATCH });
  const { tools } = await mcp.client.listTools();
  assert.deepEqual(
    tools.map((tool) => tool.name),
    [BATCH],
  );
  const report = await batch(mcp, {
    operations: [{ tool: 'get_server_info' }, { tool: 'capture_pane', arguments: { paneId: pane } }],
  });
  assert.deepEqual(
    report.results.map((row) => row.success),
    [true, true],
  );
  // Not listed means not callable directly.
  await assert.rejects(mcp.client.callTool({ name: 'capture_pane', arguments: { paneId: pane } }), /capture_pane" is not enabled/);
});

test('reports progress per operation when the client asks for it', async (t) => {
  const { mcp } = await started(t);
  const seen = progressOnWire(mcp.client);
  await mcp.client.callTool({ name: BATCH, arguments: { operations: [{ tool: 'list_sessions' }, { tool: 'list_panes' }] } }, {
    onprogress: () => {},
  } as never);
  assert.deepEqual(
    seen.map((p) => p.progress),
    [0, 1],
    'one notification as each operation starts',
  );
  assert.ok(seen.every((p) => p.total === 2));
});

/** Fills `pane` with `lines` rows of `width` characters each, numbered, and waits until they are all printed. */
async function fill(tmux: PrivateTmux, pane: string, lines: number, width: number): Promise<void> {
  await tmux.typeAndWait(
    pane,
    `awk 'BEGIN{s=sprintf("%${width}s",""); gsub(/ /,"y",s); for(i=0;i<${lines};i++) printf "%05d%s\\n", i, s}'`,
  );
}

/** One tools/call over raw stdio, to measure the response line exactly as it crosses the wire. */
async function wireCall(env: NodeJS.ProcessEnv, name: string, args: unknown): Promise<{ bytes: number; message: any }> {
  const child = spawn(process.execPath, [CLI], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  try {
    const lines = createInterface({ input: child.stdout });
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const reply = (id: number) =>
      new Promise<string>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
        lines.on('line', (line) => {
          if (JSON.parse(line).id === id) resolve(line);
        });
      });
    const initialized = reply(1);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'wire', version: '0' } },
    });
    await initialized;
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const answered = reply(2);
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } });
    const line = await answered;
    const message = JSON.parse(line);
    if (message.result) contractCheck('libtmux')(name, message.result);
    return { bytes: Buffer.byteLength(line, 'utf8') + 1, message };
  } finally {
    child.stdin.end();
    child.kill();
  }
}

test('panes holding megabytes: the response stays under 1,000,000 bytes, dropping the last results and keeping every row', async (t) => {
  const tmux = privateTmux(t);
  const panes = [await tmux.start({ session: 'big0', width: 1100, height: 50 })];
  for (let i = 1; i < 4; i++) {
    panes.push(
      (
        await tmux.tmux('new-session', '-d', '-P', '-F', '#{pane_id}', '-s', `big${i}`, '-x', '1100', '-y', '50', '-e', 'PS1=$ ', 'sh')
      ).trim(),
    );
  }
  // 4 panes x 2000 lines x 1005 characters: about 8 MB of terminal text.
  for (const pane of panes) await fill(tmux, pane, 2000, 1000);
  const operations = Array.from({ length: 16 }, (_, i) => ({
    tool: 'capture_pane',
    arguments: { paneId: panes[i % panes.length], start: -2000, maxLines: 2000 },
  }));

  const mcp = await startMcp(t, { env: tmux.env });
  const one = await mcp.ok('capture_pane', operations[0]!.arguments);
  assert.ok(one.lines.join('').length > 100_000, 'a single capture already carries over 100 KB');

  const result = await mcp.call(BATCH, { operations });
  assert.ok(
    !result.isError,
    result.content
      .map((c) => c.text)
      .join('\n')
      .slice(0, 500),
  );
  const sdkBytes = Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 99, result }), 'utf8');
  assert.ok(sdkBytes < WIRE_CAP, `response of ${sdkBytes} bytes`);

  const report = result.structuredContent as unknown as Report;
  assert.equal(report.truncated, true);
  assert.ok(report.truncatedBytes > 0);
  assert.equal(report.results.length, 16, 'every row keeps its metadata');
  assert.deepEqual(
    report.results.map((row) => row.index),
    [...Array(16).keys()],
  );
  assert.ok(report.results.every((row) => row.tool === 'capture_pane' && row.success && row.error === null));
  assert.equal(report.succeeded, 16);
  const kept = report.results.filter((row) => row.result !== null);
  const dropped = report.results.filter((row) => row.result === null);
  assert.ok(kept.length >= 1 && dropped.length >= 1, `${kept.length} kept, ${dropped.length} dropped`);
  assert.ok(dropped.every((row) => row.resultTruncated) && kept.every((row) => !row.resultTruncated));
  assert.ok(
    report.truncatedBytes >= dropped.length * 100_000,
    `truncatedBytes ${report.truncatedBytes} for ${dropped.length} dropped rows`,
  );
  assert.ok(kept[0]!.result!.structuredContent.lines.some((line: string) => /^\d{5}y{1000}$/.test(line)));
  assert.match(result.content[0]!.text!, /dropped to stay under the response limit/);

  // And on the wire itself, byte for byte.
  const wire = await wireCall(tmux.env, BATCH, { operations });
  assert.ok(wire.bytes < WIRE_CAP, `wire response of ${wire.bytes} bytes`);
  assert.equal(wire.message.result.structuredContent.truncated, true);
  assert.equal(wire.message.result.structuredContent.results.length, 16);
  t.diagnostic(
    `16 captures of 4 panes x 2 MB: SDK-measured ${sdkBytes} bytes, wire ${wire.bytes} bytes, ${kept.length} results kept, ${report.truncatedBytes} bytes dropped`,
  );
});
