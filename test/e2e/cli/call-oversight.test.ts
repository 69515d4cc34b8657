/**
 * `tmux-mcp call` in a process of its own keeps what a server would honour: `--audit` appends the
 * call's line (client `tmux-mcp-call`) to the file a running server writes, whole beside the
 * server's; `--record` records the pane the call acts on; `--view`, which needs a server, is refused
 * and says so. It says what the server said beside a structured result (on stderr), and takes its
 * arguments from stdin only when asked (`-`), or from a file or a pipe that has ended: an open pipe
 * nobody writes to is not waited for.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, startMcp } from '../../fixture/mcp.js';
import { contractCheck } from '../../fixture/schema-check.js';
import { privateTmux } from '../../fixture/tmux.js';
import { runProgram, type Run } from '../../fixture/cli-run.js';

/** The built bin with `stdin` (a file descriptor, or "ignore"); a hang ends by SIGKILL after `limitMs` (status null). */
function cli(args: string[], env: NodeJS.ProcessEnv, stdin: number | 'ignore' = 'ignore', limitMs = 60_000): Promise<Run> {
  return runProgram(process.execPath, [CLI, ...args], env, { stdin, limitMs });
}

function tempDir(t: { after: (fn: () => void) => void }, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const check = contractCheck('libtmux');

function answer(tool: string, run: Run): any {
  assert.equal(run.status, 0, `${tool} exited ${run.status}: ${run.stderr}`);
  const value = JSON.parse(run.stdout);
  check(tool, { structuredContent: value });
  return value;
}

test("call --audit: each call appends its line beside a running server's, no line torn, client tmux-mcp-call", async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'audited' });
  const file = join(tempDir(t, 'tmux-mcp-audit-'), 'audit.jsonl');
  const mcp = await startMcp(t, { env: tmux.env, args: ['--audit', file] });
  // Long arguments make long lines (a pattern of 3000 characters): a torn append would show as a line that is not JSON.
  const long = 'x'.repeat(3000);
  const calls = 12;
  let serverCalls = 0;
  let running = true;
  const server = (async () => {
    while (running) {
      await mcp.ok('get_pane_info', { paneId: pane });
      serverCalls++;
    }
  })();
  // A search: one tmux client per call. Many control clients leaving tmux at once can crash tmux itself
  // (3.3a and 3.5a: control_notify_client_detached writes to a client on its way out), so four at a time.
  const shell = [];
  for (let round = 0; round < calls / 4; round++) {
    shell.push(
      ...(await Promise.all(
        Array.from({ length: 4 }, () =>
          cli(['call', 'search_panes', JSON.stringify({ pattern: long, session: 'audited' }), '--audit', file], tmux.env),
        ),
      )),
    );
  }
  running = false;
  await server;
  for (const run of shell) assert.deepEqual(answer('search_panes', run).matches, []);
  assert.ok(serverCalls > 0, 'the server wrote while the calls did');

  const text = readFileSync(file, 'utf8');
  assert.ok(text.endsWith('\n'));
  const lines = text
    .trimEnd()
    .split('\n')
    .map(
      (line) =>
        JSON.parse(line) as {
          client: { name?: string };
          tool: string;
          targets: string[];
          arguments: { pattern?: string };
          outcome: string;
        },
    );
  const fromShell = lines.filter((line) => line.client.name === 'tmux-mcp-call');
  assert.equal(fromShell.length, calls, 'one line per call');
  for (const line of fromShell) {
    assert.equal(line.tool, 'search_panes');
    assert.equal(line.outcome, 'ok');
    assert.equal(line.arguments.pattern, long);
  }
  assert.ok(
    lines.filter((line) => line.client.name !== 'tmux-mcp-call' && line.tool === 'get_pane_info').length >= serverCalls,
    "the server's lines are all there",
  );
  assert.equal(statSync(file).mode & 0o777, 0o600);

  // A listing calls no tool: no line, and a file it would have made is not left behind.
  const unused = join(tempDir(t, 'tmux-mcp-audit-'), 'unused.jsonl');
  assert.equal((await cli(['tools', '--audit', unused], tmux.env)).status, 0);
  assert.deepEqual(readdirSync(join(unused, '..')), []);
  // A file that cannot be written: the call is not made, one line says why.
  const refused = await cli(['call', 'list_sessions', '--audit', join(tmux.dir, 'no-such-dir', 'a.jsonl')], tmux.env);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /^tmux-mcp: --audit .*no-such-dir\/a\.jsonl: cannot write there \(its directory does not exist\)\n$/);
});

test('call --record: the pane the call acts on is recorded while it runs; --view needs a server and says so', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'rec' });
  await tmux.typeAndWait(pane, 'echo already-$((6*7))');
  const dir = tempDir(t, 'tmux-mcp-rec-');
  answer('capture_pane', await cli(['call', 'capture_pane', JSON.stringify({ paneId: pane }), '--record', dir], tmux.env));
  const files = readdirSync(dir);
  assert.equal(files.length, 1, String(files));
  assert.match(files[0]!, /^rec-p0-\d{8}T\d{6}Z\.cast$/);
  const [header, first] = readFileSync(join(dir, files[0]!), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.equal(header.version, 2);
  assert.equal(first[1], 'o');
  assert.match(first[2], /already-42/, "the pane's screen when the call acted on it");

  const view = await cli(['call', 'list_sessions', '--view', '0'], tmux.env);
  assert.equal(view.status, 2);
  assert.match(view.stderr, /^tmux-mcp: --view \(TMUX_MCP_VIEW\) serves a live page while a server runs: .*--url\n$/);
  assert.equal((await cli(['call', 'list_sessions'], { ...tmux.env, TMUX_MCP_VIEW: '0' })).status, 2);
  // A switch of the server's between the tool and its JSON is read as one.
  const readOnly = await cli(['call', 'send_keys', '--read-only', JSON.stringify({ paneId: pane, keys: ['x'] })], tmux.env);
  assert.equal(readOnly.status, 2);
  assert.match(readOnly.stderr, /send_keys.*read-only/);
});

test('call says on stderr what the server said beside the result; stdout keeps the result alone', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'said' });
  const plain = await cli(['call', 'list_sessions'], tmux.env);
  answer('list_sessions', plain);
  assert.equal(plain.stderr, '', 'a result that is all JSON says nothing more');

  const waited = await cli(
    ['call', 'wait_for_text', JSON.stringify({ paneId: pane, patterns: ['never-printed'], timeoutMs: 200 })],
    tmux.env,
  );
  assert.equal(answer('wait_for_text', waited).outcome, 'timedOut');
  assert.match(waited.stderr, /^No match in %\d+ within 0\.2 s\./);

  // A host that cannot answer: the local sessions on stdout, the host named on stderr.
  const hosts = await cli(['call', 'list_sessions', '--host', 'down=nowhere.invalid'], { ...tmux.env, TMUX_MCP_SSH_BIN: 'false' });
  assert.deepEqual(
    answer('list_sessions', hosts).sessions.map((s: { name: string }) => s.name),
    ['said'],
  );
  assert.match(hosts.stderr, /^Not listed \(host could not answer\): down: /);
});

test('call reads stdin only when asked, or from a pipe that has ended: a pipe held open is not waited for', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'stdin' });
  const fifo = join(tmux.dir, 'open.fifo');
  execFileSync('mkfifo', [fifo]);
  // A writer that stays open and silent, as `sleep 600 | tmux-mcp call ...` or an agent's shell leaves it.
  const writer = openSync(fifo, 'r+');
  const reader = openSync(fifo, 'r');
  t.after(() => {
    closeSync(writer);
    closeSync(reader);
  });
  const listed = await cli(['call', 'list_sessions'], tmux.env, reader, 30_000);
  assert.deepEqual(
    answer('list_sessions', listed).sessions.map((s: { name: string }) => s.name),
    ['stdin'],
  );
  // A file on stdin is read, as a pipe that has ended is (cli/call.test.ts).
  const args = join(tmux.dir, 'args.json');
  execFileSync('sh', ['-c', `printf '%s' '${JSON.stringify({ paneId: pane })}' > '${args}'`]);
  const file = openSync(args, 'r');
  t.after(() => closeSync(file));
  assert.equal(answer('get_pane_info', await cli(['call', 'get_pane_info'], tmux.env, file)).pane.id, pane);
});
