/**
 * Tool selection end to end: LIBTMUX_TOOLSETS / LIBTMUX_TOOLS / LIBTMUX_EXCLUDE_TOOLS shape what is
 * listed and callable, teardown is on by default only on the private default socket,
 * bad names stop start-up with exit code 2 and a message, unbuilt profiles refuse to start, and
 * tmux://capabilities reports exactly what is in force.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { CLI, startMcp, type McpSession } from '../../fixture/mcp.js';
import { shared } from '../../fixture/shared.js';
import { PrivateTmux, privateTmux, TMUX_BIN } from '../../fixture/tmux.js';

const CAPABILITY = 'com.git-pull.libtmux-mcp/capability';
const ALL = 'inspect,manage,execute,teardown';

type Listed = Awaited<ReturnType<McpSession['client']['listTools']>>['tools'];

async function listed(mcp: McpSession): Promise<Listed> {
  return (await mcp.client.listTools()).tools;
}
const names = (tools: Listed) => tools.map((tool) => tool.name).sort();
const toolset = (tool: Listed[number]) => (tool._meta as any)[CAPABILITY].toolset as string;

/**
 * Every tool this build has, by toolset, read from a server with all four toolsets on; read once for
 * the file (a listing asks no tmux), on a socket no test uses.
 */
const catalog = shared(async (scope): Promise<ReadonlyMap<string, readonly string[]>> => {
  const tmux = new PrivateTmux();
  scope.after(() => tmux.dispose());
  const mcp = await startMcp(scope, { env: { ...tmux.env, LIBTMUX_TOOLSETS: ALL } });
  const bySet = new Map<string, string[]>();
  for (const tool of await listed(mcp)) bySet.set(toolset(tool), [...(bySet.get(toolset(tool)) ?? []), tool.name]);
  await mcp.close();
  for (const list of bySet.values()) list.sort();
  return bySet;
});

async function capabilities(mcp: McpSession): Promise<any> {
  const { contents } = await mcp.client.readResource({ uri: 'tmux://capabilities' });
  assert.equal(contents.length, 1);
  assert.equal(contents[0]!.mimeType, 'application/json');
  return JSON.parse((contents[0] as { text: string }).text);
}

/** Starts the CLI expecting it to refuse: returns its exit code, stdout and stderr. */
function refusedStart(env: NodeJS.ProcessEnv, args: string[] = []) {
  const run = spawnSync(process.execPath, [CLI, ...args], { env, input: '', encoding: 'utf8', timeout: 20_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('default toolsets: teardown on the private default socket, opt-in on a socket the user named', async (t) => {
  const tmux = privateTmux(t);
  const bySet = await catalog();
  const teardown = bySet.get('teardown') ?? [];
  const everything = [...bySet.values()].flat().sort();

  // A named socket (here LIBTMUX_SOCKET_PATH), no server yet: teardown is still opt-in.
  const named = await startMcp(t, { env: tmux.env });
  assert.deepEqual(
    names(await listed(named)),
    everything.filter((name) => !teardown.includes(name)),
  );
  const namedReport = await capabilities(named);
  assert.deepEqual(namedReport.selection.toolsets, ['execute', 'inspect', 'manage']);
  assert.equal(namedReport.selection.toolsetsSource, 'default');
  assert.equal(namedReport.socket.serverState, 'not-started');
  if (teardown.includes('kill_pane')) {
    await assert.rejects(
      named.client.callTool({ name: 'kill_pane', arguments: { paneId: '%0' } }),
      /kill_pane" is not enabled on this server: it is in the "teardown" toolset.*LIBTMUX_TOOLSETS or LIBTMUX_TOOLS/,
    );
  }

  // The private default socket (TMUX_TMPDIR keeps it inside the test's dir): everything there is
  // ours, so teardown is on, also for the second start that finds the first one's tmux server.
  const env: NodeJS.ProcessEnv = { ...tmux.env, TMUX_TMPDIR: tmux.dir };
  delete env.LIBTMUX_SOCKET_PATH;
  t.after(() => void spawnSync(TMUX_BIN, ['-L', 'libtmux-mcp', 'kill-server'], { env, stdio: 'ignore' }));
  const first = await startMcp(t, { env });
  assert.deepEqual(names(await listed(first)), everything);
  const firstReport = await capabilities(first);
  assert.equal(firstReport.selection.toolsetsSource, 'default-with-teardown');
  assert.equal(firstReport.socket.configurationProvenance, 'launched-by-this-process');
  await first.ok('create_session', { name: 'outlives' });
  await first.close();

  const second = await startMcp(t, { env });
  assert.deepEqual(names(await listed(second)), everything);
  const secondReport = await capabilities(second);
  assert.deepEqual(secondReport.selection.toolsets, ['execute', 'inspect', 'manage', 'teardown']);
  assert.equal(secondReport.socket.serverState, 'existing');
  assert.equal(secondReport.socket.selectionProvenance, 'default');
  await second.ok('kill_session', { session: 'outlives' });
  assert.deepEqual((await second.ok('list_sessions')).sessions, []);
});

test('LIBTMUX_TOOLSETS, LIBTMUX_TOOLS and LIBTMUX_EXCLUDE_TOOLS shape what is listed and callable', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'sel' });
  const bySet = await catalog();
  const inspect = bySet.get('inspect')!;

  const only = await startMcp(t, { env: { ...tmux.env, LIBTMUX_TOOLSETS: 'inspect' } });
  assert.deepEqual(names(await listed(only)), inspect);

  const manage = bySet.get('manage') ?? [];
  const added = manage.includes('rename_session') ? 'rename_session' : undefined;
  const shaped = await startMcp(t, {
    env: {
      ...tmux.env,
      LIBTMUX_TOOLSETS: 'inspect',
      ...(added ? { LIBTMUX_TOOLS: `${added},list_sessions` } : { LIBTMUX_TOOLS: 'list_sessions' }),
      // Exclusions apply last: they beat LIBTMUX_TOOLS.
      LIBTMUX_EXCLUDE_TOOLS: 'list_sessions,capture_pane',
    },
  });
  const expected = [...inspect.filter((name) => name !== 'list_sessions' && name !== 'capture_pane'), ...(added ? [added] : [])].sort();
  assert.deepEqual(names(await listed(shaped)), expected);
  await assert.rejects(
    shaped.client.callTool({ name: 'list_sessions', arguments: {} }),
    /list_sessions" is excluded on this server by LIBTMUX_EXCLUDE_TOOLS/,
  );
  await assert.rejects(shaped.client.callTool({ name: 'no_such_tool', arguments: {} }), /unknown tool "no_such_tool"/);
  if (added) {
    await shaped.ok(added, { session: 'sel', name: 'renamed' });
    assert.match(await tmux.tmux('list-sessions', '-F', '#{session_name}'), /^renamed$/m);
  }
  const report = await capabilities(shaped);
  assert.deepEqual(report.selection.toolsets, ['inspect']);
  assert.deepEqual(report.selection.includedTools, [...(added ? [added] : []), 'list_sessions'].sort());
  assert.deepEqual(report.selection.excludedTools, ['capture_pane', 'list_sessions']);
  const batch = report.tools.find((row: any) => row.name === 'call_read_tools_batch');
  assert.ok(!batch.nestedAuthority.includes('list_sessions') && !batch.nestedAuthority.includes('capture_pane'));

  const none = await startMcp(t, { env: { ...tmux.env, LIBTMUX_TOOLSETS: '' } });
  assert.deepEqual(await listed(none), []);
  assert.equal((await capabilities(none)).toolCount, 0);
});

test('bad selection names stop start-up with exit code 2 and say what is wrong', async (t) => {
  const tmux = privateTmux(t);
  const cases: Array<[NodeJS.ProcessEnv, RegExp]> = [
    [{ LIBTMUX_TOOLSETS: 'inspect,bogus' }, /LIBTMUX_TOOLSETS: unknown toolset "bogus"; choose from inspect, manage, execute, teardown/],
    [{ LIBTMUX_TOOLSETS: 'inspect,' }, /LIBTMUX_TOOLSETS has an empty entry/],
    [{ LIBTMUX_TOOLS: 'list_sesions' }, /LIBTMUX_TOOLS: unknown tool "list_sesions" \(did you mean "list_sessions"\?\)/],
    [{ LIBTMUX_TOOLS: 'list_sessions,,list_panes' }, /LIBTMUX_TOOLS has an empty entry/],
    [{ LIBTMUX_EXCLUDE_TOOLS: 'kill_pane,,kill_window' }, /LIBTMUX_EXCLUDE_TOOLS has an empty entry/],
    [{ LIBTMUX_EXCLUDE_TOOLS: 'nothing_like_it' }, /LIBTMUX_EXCLUDE_TOOLS: unknown tool "nothing_like_it"; known tools: .*list_sessions/],
  ];
  for (const [env, message] of cases) {
    const run = refusedStart({ ...tmux.env, ...env });
    assert.equal(run.code, 2, `${JSON.stringify(env)} should fail start-up: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.match(run.stderr, /^tmux-mcp: /);
    assert.equal(run.stdout, '', 'nothing reaches the protocol stream');
  }
});

test('an unknown profile refuses to start', async (t) => {
  const tmux = privateTmux(t);
  const unknown = refusedStart(tmux.env, ['--profile', 'perl']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown profile "perl"; choose one of libtmux, python, julia/);
});

test('tmux://capabilities reports the effective tools, their rows, the selection, the socket and the boundaries', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const mcp = await startMcp(t, { env: { ...tmux.env, LIBTMUX_TOOLSETS: 'inspect,execute', LIBTMUX_EXCLUDE_TOOLS: 'search_panes' } });

  const { resources } = await mcp.client.listResources();
  assert.deepEqual(
    resources.map((r) => r.uri),
    ['tmux://capabilities'],
  );
  await assert.rejects(mcp.client.readResource({ uri: 'tmux://nothing' }), /no resource at tmux:\/\/nothing/);

  const tools = await listed(mcp);
  const report = await capabilities(mcp);
  assert.deepEqual(
    report.effectiveTools,
    tools.map((tool) => tool.name),
  );
  assert.equal(report.toolCount, tools.length);
  assert.deepEqual(
    report.tools,
    tools.map((tool) => (tool._meta as any)[CAPABILITY]),
    'each row is the one tools/list carries in _meta',
  );
  assert.ok(report.tools.every((row: any) => ['inspect', 'execute'].includes(row.toolset)));
  assert.ok(!report.effectiveTools.includes('search_panes'));

  assert.equal(report.schemaVersion, 1);
  assert.equal(report.frozen, true);
  assert.equal(report.hostCommandTools, 0);
  assert.equal(report.toolFilteringBoundary, 'interface-shaping-not-authorization');
  assert.equal(report.executionAuthority, 'tmux-user');
  assert.equal(report.operatingSystemBoundary, 'none');
  assert.deepEqual(report.boundary, {
    oneSocketPerProcess: true,
    perCallSocketSelection: false,
    hostCommandExecution: false,
    dynamicResources: false,
  });
  assert.deepEqual(report.selection, {
    toolsets: ['execute', 'inspect'],
    toolsetsSource: 'LIBTMUX_TOOLSETS',
    includedTools: [],
    excludedTools: ['search_panes'],
  });

  assert.deepEqual(Object.keys(report.socket).sort(), [
    'configurationProvenance',
    'namespaceBoundary',
    'selectionProvenance',
    'selector',
    'serverState',
  ]);
  assert.equal(report.socket.selector, `-S ${tmux.socketPath}`);
  assert.equal(report.socket.selectionProvenance, 'LIBTMUX_SOCKET_PATH');
  assert.equal(report.socket.serverState, 'existing');
  assert.equal(report.socket.namespaceBoundary, 'tmux-objects-only');
  assert.equal(report.connection.socketSelector, report.socket.selector);
  assert.equal(report.connection.socketProvenance, report.socket.selectionProvenance);
  assert.equal(report.connection.serverState, report.socket.serverState);
  assert.equal(report.connection.configurationProvenance, report.socket.configurationProvenance);
  assert.equal(report.connection.resolvedSocketPath, tmux.socketPath);
  assert.match(report.connection.attachCommand, new RegExp(` -N -S ${tmux.socketPath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} attach$`));
  const pid = Number((await tmux.tmux('display-message', '-p', '#{pid}')).trim());
  assert.equal(report.connection.serverPid, pid);
  assert.equal(report.connection.tmuxVersion, (await tmux.tmux('display-message', '-p', '#{version}')).trim());
});

test('the default socket is reported by name, with where tmux keeps it', async (t) => {
  const tmux = privateTmux(t);
  const name = `tmux-mcp-sel-${process.pid}`;
  const env = { ...tmux.env, LIBTMUX_SOCKET_PATH: undefined, LIBTMUX_SOCKET_NAME: name, TMUX_TMPDIR: tmux.dir };
  delete env.LIBTMUX_SOCKET_PATH;
  const mcp = await startMcp(t, { env });
  const report = await capabilities(mcp);
  assert.equal(report.socket.selector, `-L ${name}`);
  assert.equal(report.socket.selectionProvenance, 'LIBTMUX_SOCKET_NAME');
  assert.equal(report.socket.serverState, 'not-started');
  assert.equal(report.connection.resolvedSocketPath, `${tmux.dir}/tmux-${process.getuid!()}/${name}`);
  assert.equal(report.connection.tmuxVersion, null);
});
