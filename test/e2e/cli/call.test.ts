/**
 * `tmux-mcp call` and `tmux-mcp tools`, the built bin as a shell runs it: in each profile a result on
 * stdout (exit 0), a tool error as one message on stderr (exit 1), bad usage (exit 2) and the JSON
 * on stdin; the listing matches what an MCP client is served; and `--url` sends the call to a
 * running `tmux-mcp --http`, sharing its wait cursors with an MCP client connected there.
 * Every structured result is checked against the published contract's output schema.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { contractCheck } from '../../fixture/schema-check.js';
import { startHttp } from '../../fixture/http.js';
import { CLI, connectHttp, startMcp } from '../../fixture/mcp.js';
import { privateTmux, scrubbedEnv } from '../../fixture/tmux.js';
import { runProgram, type Run } from '../../fixture/cli-run.js';

/**
 * Runs the built bin with `args` and `input` on its stdin (a socket pair, as a program spawning it
 * would give; closed once written, or left open and unwritten when `input` is undefined).
 */
function cli(args: string[], env: NodeJS.ProcessEnv, input: string | undefined = ''): Promise<Run> {
  return runProgram(process.execPath, [CLI, ...args], env, { stdin: input ?? 'open' });
}

/** A shell command line, with $NODE and $CLI set: for stdin as a shell pipe gives it. */
function piped(line: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return runProgram('/bin/sh', ['-c', line], { ...env, NODE: process.execPath, CLI });
}

const CONTRACTS = fileURLToPath(new URL('../../contract/', import.meta.url));
const contract = (profile: string) =>
  JSON.parse(readFileSync(join(CONTRACTS, `${profile}.json`), 'utf8')) as {
    tools: Array<{ name: string; outputSchema?: Record<string, unknown> }>;
  };

/** stdout as the tool's structured result, checked against the contract's output schema (not the server's copy). */
function structured(profile: string, tool: string, run: Run): any {
  assert.equal(run.status, 0, `${tool} exited ${run.status}: ${run.stderr}`);
  const value = JSON.parse(run.stdout);
  // Beside the result, stderr holds only what the server said with it (cli/call-oversight.test.ts), never the result again.
  assert.ok(!run.stderr.includes(JSON.stringify(value)), 'the result is on stdout only');
  const schema = contract(profile).tools.find((t) => t.name === tool)?.outputSchema;
  assert.ok(schema, `${profile} ${tool} has an output schema`);
  contractCheck(profile)(tool, { structuredContent: value });
  return value;
}

/** A tool error: exit 1, one message on stderr naming the tool, nothing on stdout. */
function toolError(run: Run, tool: string, said: RegExp): void {
  assert.equal(run.status, 1, `expected exit 1, got ${run.status}: ${run.stderr}`);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, new RegExp(`^tmux-mcp: ${tool}: `));
  assert.doesNotMatch(run.stderr, new RegExp(`^tmux-mcp: ${tool}: ${tool}:`), 'the tool named once');
  assert.match(run.stderr, said);
  assert.ok(run.stderr.endsWith('\n') && !run.stderr.slice(0, -1).includes('\ntmux-mcp:'), 'one message');
}

function usage(run: Run, said: RegExp): void {
  assert.equal(run.status, 2, `expected exit 2, got ${run.status}: ${run.stderr}`);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, said);
}

test('call, libtmux profile: a result, a tool error, bad usage, arguments on stdin, --help of a tool', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'cli' });
  const env = tmux.env;

  const sessions = structured('libtmux', 'list_sessions', await cli(['call', 'list_sessions'], env));
  assert.deepEqual(
    sessions.sessions.map((s: { name: string }) => s.name),
    ['cli'],
  );

  toolError(await cli(['call', 'list_panes', '{"session": "nope"}'], env), 'list_panes', /no session named "nope"/);
  // Arguments outside the schema are the tool's answer (it names the argument), so exit 1 as well.
  toolError(await cli(['call', 'get_pane_info', '{"paneId": 3}'], env), 'get_pane_info', /paneId/);

  usage(await cli(['call', 'list_pains'], env), /unknown tool "list_pains".*did you mean "list_panes"/);
  usage(await cli(['call', 'list_sessions', '{not json'], env), /the JSON argument is not JSON/);
  usage(await cli(['call', 'list_sessions', '[1]'], env), /must be a JSON object of arguments/);
  usage(await cli(['call'], env), /needs a tool name/);
  usage(await cli(['call', 'list_sessions', '{}', '{}'], env), /one too many/);
  usage(await cli(['call', 'list_sessions', '--frobnicate', 'x'], env), /unknown argument "--frobnicate"/);
  usage(await cli(['call', 'list_sessions', '--http', '8765'], env), /--http serves MCP/);

  // From a shell pipe, as a person or an agent's shell would write it; and with "-" from any stdin.
  const info = structured(
    'libtmux',
    'get_pane_info',
    await piped(`printf '%s' '${JSON.stringify({ paneId: pane })}' | "$NODE" "$CLI" call get_pane_info`, env),
  );
  assert.equal(info.pane.id, pane);
  // An open stdin that is not a pipe or a file (a socket nobody writes to) is not waited on: no arguments.
  toolError(await cli(['call', 'get_pane_info'], env, undefined), 'get_pane_info', /paneId/);
  const dash = structured('libtmux', 'get_pane_info', await cli(['call', 'get_pane_info', '-'], env, JSON.stringify({ paneId: pane })));
  assert.equal(dash.pane.id, pane);
  usage(await cli(['call', 'get_pane_info', '-'], env, '"a string"'), /stdin must be a JSON object/);

  const help = await cli(['call', 'wait_for_text', '--help'], env);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^tmux-mcp call wait_for_text \[JSON\]/);
  assert.match(help.stdout, /^ {2}paneId \(string, required\)$/m);
  assert.match(help.stdout, /^ {2}patterns \(array of string, required\): items <= 32$/m);
  assert.match(help.stdout, /^ {2}timeoutMs \(integer\): 100\.\.600000$/m);
  usage(await cli(['call', 'wait_for_txt', '--help'], env), /no tool "wait_for_txt" is in force.*did you mean wait_for_text\?/);
  const general = await cli(['call', '--help'], env);
  assert.equal(general.status, 0);
  assert.match(general.stdout, /Exit status: 0 the call succeeded/);
});

test('call, python profile: a structured result, a text result, a tool error, stdin', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'py' });
  const env = { ...tmux.env, TMUX_MCP_PROFILE: 'python' };

  const listed = structured('python', 'list_sessions', await cli(['call', 'list_sessions'], env));
  assert.deepEqual(
    listed.result.map((s: { session_name: string }) => s.session_name),
    ['py'],
  );
  // capture_pane has no output schema in this contract: its text is printed as it is.
  await tmux.tmux('send-keys', '-t', pane, '-l', 'echo printed-$((40+2))');
  await tmux.tmux('send-keys', '-t', pane, 'Enter');
  const waited = await cli(['call', 'wait_for_text', JSON.stringify({ pane_id: pane, patterns: ['printed-42'], timeout: 10 })], env);
  assert.equal(waited.status, 0, waited.stderr);
  const text = await cli(['call', 'capture_pane', '-'], env, JSON.stringify({ pane_id: pane }));
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /^printed-42$/m);
  assert.throws(() => JSON.parse(text.stdout), 'plain text, not JSON');

  toolError(await cli(['call', 'get_pane_info', '{"pane_id": "%999"}'], env), 'get_pane_info', /%999/);
  usage(await cli(['call', 'list_sessions', '{"socket_name": '], env), /not JSON/);
  const fromStdin = structured(
    'python',
    'get_pane_info',
    await cli(['call', 'get_pane_info', '--profile', 'python', '-'], tmux.env, JSON.stringify({ pane_id: pane })),
  );
  assert.equal(fromStdin.pane_id, pane);
});

test('call, julia profile: flags pass through, the error envelope becomes one message, stdin', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'jl' });
  const env = tmux.env;
  const julia = ['--profile', 'julia'];

  const listed = await cli(['call', 'list_panes', ...julia], env);
  assert.equal(listed.status, 0, listed.stderr);
  const { panes } = JSON.parse(listed.stdout);
  const target = panes.find((row: { target: { paneId: string } }) => row.target.paneId === pane).target;
  assert.match(target.generation, /^\d+:\d+:/);

  const captured = await cli(['call', 'capture_pane', '-', ...julia], env, JSON.stringify({ target }));
  assert.equal(captured.status, 0, captured.stderr);
  assert.ok('text' in JSON.parse(captured.stdout) || 'lines' in JSON.parse(captured.stdout), captured.stdout);

  const stale = await cli(['call', 'capture_pane', '-', ...julia], env, JSON.stringify({ target: { ...target, generation: '1:1:stale' } }));
  toolError(stale, 'capture_pane', /^tmux-mcp: capture_pane: (stale_target|wrong_server): /);

  // A tool the julia profile has but that is not enabled is bad usage, as is a flag of julia's in another profile.
  usage(await cli(['call', 'kill_pane', ...julia, '{}'], env), /kill_pane/);
  usage(await cli(['call', 'list_sessions', '--allow-create'], env), /only the julia profile takes these/);
  const tools = await cli(['tools', ...julia, '--tool', 'list_panes', '--tool', 'wait_for_text'], env);
  assert.equal(tools.status, 0, tools.stderr);
  assert.deepEqual(
    tools.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(/\s+/)[0]),
    ['list_panes', 'wait_for_text'],
  );
});

test('tools lists exactly the tools an MCP client is served, one a line, in each profile', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'tools' });
  for (const profile of ['libtmux', 'python', 'julia']) {
    const env = { ...tmux.env, TMUX_MCP_PROFILE: profile };
    const run = await cli(['tools'], env);
    assert.equal(run.status, 0, run.stderr);
    const mcp = await startMcp(t, { env: scrubbedEnv(env) });
    const served = (await mcp.client.listTools()).tools.map((tool) => tool.name);
    await mcp.close();
    const lines = run.stdout.trimEnd().split('\n');
    assert.deepEqual(
      lines.map((line) => line.split(/\s+/)[0]),
      served,
      profile,
    );
    for (const line of lines) assert.match(line, /^\S+ +\S/, `"${line}": a name, then what the tool is`);
  }
  usage(await cli(['tools', 'extra'], tmux.env), /takes no argument/);
});

test('call --url: sent to a running tmux-mcp --http, sharing its wait cursors with an MCP client there', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'shared' });
  const token = 'cli-url-test-token';
  const server = await startHttp(t, { env: { ...scrubbedEnv(tmux.env), TMUX_MCP_TOKEN: token } });
  const mcp = await connectHttp(t, { url: server.url, token });
  const viaUrl = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    cli(['call', ...args, '--url', server.url], { TMUX_MCP_TOKEN: token, ...env });

  // The MCP client types and waits; its cursor marks where its wait stopped.
  await mcp.ok('send_keys', { paneId: pane, keys: ['echo one-$((40+2))', 'Enter'] });
  const one = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['one-42'] });
  assert.equal(one.outcome, 'matched');
  await mcp.ok('send_keys', { paneId: pane, keys: ['echo two-$((40+2))', 'Enter'] });
  await mcp.ok('wait_for_text', { paneId: pane, patterns: ['two-42'], cursor: one.cursor });

  // The shell's call resumes from the client's cursor on the same server: "two-42" came after it.
  const resumed = structured(
    'libtmux',
    'wait_for_text',
    await viaUrl(['wait_for_text', JSON.stringify({ paneId: pane, patterns: ['two-42'], cursor: one.cursor, timeoutMs: 20000 })]),
  );
  assert.equal(resumed.outcome, 'matched');
  assert.equal(resumed.matchedAtEntry, false);

  // In a process of its own the cursor's watch is not there: it waits from now and sees no new "two-42".
  const alone = structured(
    'libtmux',
    'wait_for_text',
    await cli(
      ['call', 'wait_for_text', JSON.stringify({ paneId: pane, patterns: ['two-42'], cursor: one.cursor, timeoutMs: 300 })],
      tmux.env,
    ),
  );
  assert.equal(alone.outcome, 'timedOut');

  // And the other way: the client resumes from the cursor the shell's call handed back.
  await viaUrl(['send_keys', JSON.stringify({ paneId: pane, keys: ['echo three-$((40+2))', 'Enter'] })]);
  const three = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['three-42'], cursor: resumed.cursor });
  assert.equal(three.outcome, 'matched');

  // The token as --http takes it: a file works; none, or a wrong one, is said plainly.
  const file = join(tmux.dir, 'token');
  writeFileSync(file, `${token}\n`);
  const listed = await cli(['tools', '--url', server.url, '--token-file', file], {});
  assert.equal(listed.status, 0, listed.stderr);
  assert.match(listed.stdout, /^wait_for_text +\S/m);
  usage(await cli(['tools', '--url', server.url], {}), /needs the server's bearer token/);
  const refused = await viaUrl(['list_sessions'], { TMUX_MCP_TOKEN: 'wrong' });
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /the token was refused \(401\)/);
  usage(await viaUrl(['list_sessions', '--profile', 'python']), /--profile chooses the engine this process would start/);
  toolError(await viaUrl(['list_panes', '{"session": "nope"}']), 'list_panes', /no session named "nope"/);
  // TMUX_MCP_URL does what --url does: the sessions come from the server, not from the socket this environment names.
  const fromEnv = await cli(['call', 'list_sessions'], {
    TMUX_MCP_URL: server.url,
    TMUX_MCP_TOKEN: token,
    LIBTMUX_SOCKET_PATH: join(tmux.dir, 'no-such.sock'),
  });
  assert.deepEqual(
    structured('libtmux', 'list_sessions', fromEnv).sessions.map((s: { name: string }) => s.name),
    ['shared'],
  );
});

test('the HTTP banner is one line on stderr, the generated token in it', async (t) => {
  const tmux = privateTmux(t);
  const env = scrubbedEnv(tmux.env);
  delete env.TMUX_MCP_TOKEN;
  const server = await startHttp(t, { env });
  assert.match(server.token, /^[A-Za-z0-9_-]{43}$/);
  const lines = server.stderr().split('\n').filter(Boolean);
  assert.equal(lines.length, 1, server.stderr());
  assert.match(
    lines[0]!,
    new RegExp(
      `^tmux-mcp \\S+: profile libtmux, .*, HTTP at ${server.url.replace(/[.]/g, '\\.')} with the bearer token for this run: ${server.token}$`,
    ),
  );
  // And the shell finds the server with that token.
  const listed = await cli(['tools', '--url', server.url], { TMUX_MCP_TOKEN: server.token });
  assert.equal(listed.status, 0, listed.stderr);
});
