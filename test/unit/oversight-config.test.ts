/**
 * The audit and view flags (`--audit`, `--audit-redact`, `--view` and their variables): what they
 * set, and each mistake refused with a message before start-up; and the trail's redaction, bounds
 * and subscription, in this process against a real file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError } from '../../src/config.js';
import { parseCli } from '../../src/cli/options.js';
import { AuditTrail, type AuditEntry } from '../../src/mcp/tools/audit.js';
import { auditTargets } from '../../src/mcp/tools/audit-targets.js';
import { encodeRef } from '../../src/core/targets/refs.js';

function config(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const action = parseCli(argv, env);
  assert.equal(action.kind, 'serve');
  if (action.kind !== 'serve') throw new Error('unreachable');
  return action.config;
}

const refused = (argv: string[], message: RegExp, env: NodeJS.ProcessEnv = {}) =>
  assert.throws(
    () => parseCli(argv, env),
    (error: unknown) => error instanceof ConfigError && message.test(error.message),
  );

test('--audit, --audit-redact, --view: flags and variables', () => {
  assert.equal(config([]).audit, undefined);
  assert.equal(config([]).view, undefined);
  assert.deepEqual(config(['--audit', '/tmp/a.jsonl']).audit, { file: '/tmp/a.jsonl', redact: [] });
  assert.deepEqual(config([], { TMUX_MCP_AUDIT: '/tmp/b.jsonl', TMUX_MCP_AUDIT_REDACT: 'sk-\\w+' }).audit, {
    file: '/tmp/b.jsonl',
    redact: ['sk-\\w+'],
  });
  assert.deepEqual(config(['--audit=/tmp/a', '--audit-redact', 'a+', '--audit-redact=b+']).audit?.redact, ['a+', 'b+']);
  // The view alone keeps a trail in memory (no file) for its page.
  const viewed = config(['--view', '8766']);
  assert.deepEqual(viewed.audit, { redact: [] });
  assert.deepEqual(viewed.view, { host: '127.0.0.1', port: 8766, allowedHostnames: [] });
  assert.deepEqual(config([], { TMUX_MCP_VIEW: '[::1]:0' }).view, { host: '::1', port: 0, allowedHostnames: [] });
  // Beyond loopback a chosen token needs at least 16 characters, for the view as for --http.
  assert.deepEqual(config(['--view', '10.0.0.5:8766', '--allow-host', 'box.lan'], { TMUX_MCP_TOKEN: 'a-token-16-chars' }).view, {
    host: '10.0.0.5',
    port: 8766,
    token: 'a-token-16-chars',
    allowedHostnames: ['box.lan', '10.0.0.5'],
  });
  // Beside --http: each its own listener, one token.
  const both = config(['--http', '8765', '--view', '8766', '--token-file', '/etc/token']);
  assert.deepEqual(
    [both.http?.port, both.http?.tokenFile, both.view?.port, both.view?.tokenFile],
    [8765, '/etc/token', 8766, '/etc/token'],
  );
});

test('--audit and --view mistakes are refused before start-up', () => {
  refused(['--audit'], /--audit needs a value/);
  refused(['--audit', 'a', '--audit', 'b'], /--audit is given twice/);
  refused(['--audit-redact', 'x'], /--audit-redact applies to --audit and --view/);
  refused(['--audit', 'a', '--audit-redact', '(unclosed'], /is not a valid regular expression/);
  refused(['--audit', 'a', '--audit-redact', 'x?'], /matches the empty string/);
  refused(['--view', 'nope'], /--view takes \[HOST:\]PORT/);
  refused(['--view', '0.0.0.0:8766'], /--view 0\.0\.0\.0:8766 listens beyond this machine: choose a token/);
  refused(['--token-file', '/t'], /apply to --http and --view only/);
});

test('the trail: redacted and bounded lines, appended, 0600, recent entries and subscribers', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-trail-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'audit.jsonl');
  const trail = new AuditTrail({ file, redact: [/sk-\w+/g, /pass(word)?=\S+/g] });
  const seen: AuditEntry[] = [];
  const stop = trail.subscribe((entry) => void seen.push(entry));
  const entry = (tool: string, args: unknown, error?: string): AuditEntry => ({
    id: trail.nextId(),
    time: new Date().toISOString(),
    client: { name: 'c' },
    tool,
    arguments: args,
    targets: ['local:%1'],
    outcome: error === undefined ? 'ok' : 'error',
    ...(error !== undefined ? { error } : {}),
    ms: 1.5,
  });
  trail.record(entry('send_keys', { keys: ['export KEY=sk-abc123 password=hunter2'], nested: [{ text: 'sk-zzz' }] }));
  trail.record(entry('paste_text', { text: 'x'.repeat(10_000) }, 'bad sk-leaked token'));
  stop();
  trail.record(entry('list_panes', {}));
  trail.close();

  assert.equal(statSync(file).mode & 0o777, 0o600);
  const lines = readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.equal(lines.length, 3);
  assert.deepEqual(lines[0].arguments, { keys: ['export KEY=[redacted] [redacted]'], nested: [{ text: '[redacted]' }] });
  assert.equal(lines[1].error, 'bad [redacted] token');
  assert.equal(lines[1].arguments.text, `${'x'.repeat(4096)}...[5904 more characters]`, 'a long string is cut, saying how much');
  assert.deepEqual(
    seen.map((e) => e.tool),
    ['send_keys', 'paste_text'],
    'subscribers get entries until they stop',
  );
  assert.deepEqual(seen[0]!.arguments, lines[0].arguments, 'what subscribers see is redacted too');
  assert.deepEqual(
    trail.recent().map((e) => e.id),
    [1, 2, 3],
  );

  // Appended, never truncated: a second run adds to the same file.
  const again = new AuditTrail({ file });
  again.record(entry('list_sessions', {}));
  again.close();
  assert.equal(readFileSync(file, 'utf8').trimEnd().split('\n').length, 4);
});

test("audit targets: ids and refs in the arguments the tool declares as targets, and the answer's own object", () => {
  const ref = encodeRef('pane', '%7', { host: 'gpu', socketPath: '/tmp/s', pid: 1, startTime: 2 });
  assert.deepEqual(auditTargets({ paneId: '%3', keys: ['%9 is text, not a target'] }, undefined, ['paneId']).ids, ['local:%3']);
  assert.deepEqual(
    auditTargets({ pane_id: 'gpu:%4', window_id: '@2', session_name: 'work' }, undefined, ['pane_id', 'window_id', 'session_name']).ids,
    ['gpu:%4', 'local:@2'],
  );
  assert.deepEqual(auditTargets({ target: { paneId: '%5', generation: '1:2:abc' } }, undefined, ['target.paneId']).ids, ['local:%5']);
  assert.deepEqual(auditTargets({ paneId: ref }, undefined, ['paneId']).ids, ['gpu:%7'], 'a ref names its host');
  assert.deepEqual(
    auditTargets({ operations: [{ paneId: '%1' }, { paneId: 'local:%2' }, {}] }, undefined, ['operations[].paneId']).ids,
    ['local:%1', 'local:%2'],
    'each item of an array',
  );
  // Only what is declared: a new window's name that looks like an id is a name (the old guess by
  // argument name took windowName for a target).
  assert.deepEqual(auditTargets({ name: 'work', windowName: '%1' }, undefined, []).ids, []);
  // The answer: the object acted on (a created pane, the session of a pane), not a listing's rows.
  assert.deepEqual(auditTargets({ session: 'work' }, { paneId: '%8', windowId: '@3', sessionId: '$1' }, ['session']).ids, [
    'local:%8',
    'local:@3',
    'local:$1',
  ]);
  assert.deepEqual(auditTargets({ name: 'work' }, { ref: 'tmux1_x', id: '$4', name: 'work' }).ids, ['local:$4'], 'a created session');
  assert.deepEqual(auditTargets({}, { panes: [{ paneId: '%1' }, { paneId: '%2' }] }).ids, []);
  const many = auditTargets({ operations: Array.from({ length: 70 }, (_, i) => ({ paneId: `%${i}` })) }, undefined, [
    'operations[].paneId',
  ]);
  assert.equal(many.ids.length, 64);
  assert.equal(many.omitted, 6);
});
