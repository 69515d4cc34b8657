/**
 * The plain tools/call of a 2025-11-25 session answered without its server (session-calls.ts) is the
 * session's server's answer, byte for byte: the same requests, plain and not, go to a session on a
 * server with the direct path and to one on a server without (same profile, same tmux), and status,
 * headers, framing and body must match, the session ids made equal. Counting the profile's direct
 * calls shows which requests took the direct path. A directly answered wait ends as the server's
 * does when cancelled or its session ends, and goes on, as the server's does, when its client drops the request.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { createServerFactory, type Profile, type ServerFactory } from '../../src/mcp/server.js';
import { serveHttp, type HttpServing } from '../../src/mcp/http/serve.js';
import { post } from '../fixture/http.js';
import { cliProfile, directPathCalls, httpOptionsFor, ODD_RESULTS, renderingProfile } from '../fixture/profile.js';
import { waiters } from '../fixture/processes.js';
import { privateTmux } from '../fixture/tmux.js';
import { until } from '../fixture/until.js';

const TOKEN = 'test-token-0123456789';
const VERSION = '2025-11-25';
const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'compare', version: '0' } } };

interface Case {
  readonly label: string;
  readonly body: unknown;
  /** Headers beside the session's; an empty value leaves one out. */
  readonly headers?: Record<string, string>;
  /** Whether the direct path answers it; else the session's server (or the transport before it) does. */
  readonly direct: boolean;
  /** Sent without the session's id (no session, or one that does not exist). */
  readonly session?: 'none' | 'unknown';
}

function call(label: string, name: string, args: unknown, direct: boolean, change: { id?: unknown; params?: Record<string, unknown>; headers?: Record<string, string> } = {}): Case {
  return { label, direct, body: { method: 'tools/call', params: { name, ...(args === undefined ? {} : { arguments: args }), ...change.params }, jsonrpc: '2.0', id: 'id' in change ? change.id : 7 }, ...(change.headers ? { headers: change.headers } : {}) };
}

/** The requests every profile is asked, given a tool that succeeds with `ok`, one that fails, and invalid arguments. */
function commonCases(ok: { name: string; args: unknown }, bad: { name: string; args: unknown }, invalid: { name: string; args: unknown }): Case[] {
  const { name, args } = ok;
  const plain = call('', name, args, true).body as { params: object };
  return [
    call('a plain call', name, args, true),
    call('a plain call, string id', name, args, true, { id: 'call-a' }),
    call('a plain call, id 0', name, args, true, { id: 0 }),
    call('a tool error', bad.name, bad.args, true),
    call('invalid arguments (a tool error)', invalid.name, invalid.args, true),
    call('no arguments at all', name, undefined, true),
    call('an unknown tool', 'no_such_tool', {}, false),
    call('a progress token', name, args, false, { params: { _meta: { progressToken: 'p1' } } }),
    call('an empty _meta', name, args, false, { params: { _meta: {} } }),
    call('a 2026 envelope in _meta', name, args, false, { params: { _meta: { 'io.modelcontextprotocol/clientInfo': { name: 'other', version: '1' } } } }),
    call('a task', name, args, false, { params: { task: { ttl: 1000 } } }),
    call('arguments that are not an object', name, [1], false),
    call('a numeric name', name, args, false, { params: { name: 5 } }),
    call('a fractional id', name, args, false, { id: 1.5 }),
    call('a null id', name, args, false, { id: null }),
    call('an odd protocol version header', name, args, false, { headers: { 'mcp-protocol-version': '1999-01-01' } }),
    call('no protocol version header', name, args, true, { headers: { 'mcp-protocol-version': '' } }),
    call('an Accept without event streams', name, args, false, { headers: { accept: 'application/json' } }),
    call('a text/plain body', name, args, false, { headers: { 'content-type': 'text/plain' } }),
    { label: 'a batch of one call', direct: false, body: [call('', name, args, true).body] },
    { label: 'a batch of two calls', direct: false, body: [call('', name, args, true, { id: 1 }).body, call('', name, args, true, { id: 2 }).body] },
    { label: 'a notification', direct: false, body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } } },
    { label: 'a notification in a batch with a call', direct: false, body: [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } }, call('', name, args, true).body] },
    { label: 'tools/list', direct: false, body: { jsonrpc: '2.0', id: 'list-1', method: 'tools/list', params: {} } },
    { label: 'ping', direct: false, body: { jsonrpc: '2.0', id: 'p', method: 'ping' } },
    { label: 'a response', direct: false, body: { jsonrpc: '2.0', id: 99, result: {} } },
    { label: 'a call without a session (before initialize)', direct: false, body: { ...plain, jsonrpc: '2.0', id: 8, method: 'tools/call' }, session: 'none' },
    { label: 'a call in a session that does not exist', direct: false, body: { ...plain, jsonrpc: '2.0', id: 8, method: 'tools/call' }, session: 'unknown' },
  ];
}

type After = { after: (fn: () => Promise<void> | void) => void };

interface Side {
  readonly serving: HttpServing;
  /** The session's headers (its id, the protocol version). */
  readonly session: Record<string, string>;
  readonly id: string;
}

/** Both servers of one profile (the direct path on and off), sharing its context and engine, each with a session open. */
async function servers(t: After, profile: Profile<unknown>) {
  const factory = createServerFactory(profile);
  const counted = { calls: 0 };
  const calls = { ...factory.calls, call: (...args: Parameters<ServerFactory['calls']['call']>) => (counted.calls++, factory.calls.call(...args)) };
  const withCount: ServerFactory = Object.assign(() => factory(), { calls });
  const options = httpOptionsFor(profile, TOKEN);
  const open = async (serving: HttpServing): Promise<Side> => {
    t.after(() => serving.close());
    const opened = await post(serving.url, { authorization: `Bearer ${TOKEN}` }, INITIALIZE);
    assert.equal(opened.status, 200, opened.body);
    const id = String(opened.headers['mcp-session-id']);
    const session = { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': id, 'mcp-protocol-version': VERSION };
    assert.equal((await post(serving.url, session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
    return { serving, session, id };
  };
  const direct = await open(await serveHttp(withCount, options));
  const sdk = await open(await serveHttp(withCount, { ...options, directCalls: false }));
  return { direct, sdk, counted };
}

/** What must match of an answer: status, the headers a client reads, and the body, the session id made one. */
function seen(answer: { status: number; headers: Record<string, unknown>; body: string }, side: Side, as: Side) {
  const same = (value: unknown) => (typeof value === 'string' ? value.split(side.id).join(as.id) : value);
  const { status, headers, body } = answer;
  const kept = ['content-type', 'content-length', 'transfer-encoding', 'cache-control', 'connection', 'mcp-session-id', 'x-accel-buffering', 'allow'];
  return { status, headers: Object.fromEntries(kept.map((name) => [name, same(headers[name])])), body: same(body) };
}

function headersFor(side: Side, item: Case): Record<string, string> {
  const base: Record<string, string> =
    item.session === 'none' ? { authorization: `Bearer ${TOKEN}` } : item.session === 'unknown' ? { ...side.session, 'mcp-session-id': '00000000-0000-0000-0000-000000000000' } : side.session;
  return Object.fromEntries(Object.entries({ ...base, ...item.headers }).filter(([, value]) => value !== ''));
}

async function compare(t: After, profile: Profile<unknown>, cases: Case[]): Promise<void> {
  const { direct, sdk, counted } = await servers(t, profile);
  for (const item of cases) {
    const before = counted.calls;
    const fast = await post(direct.serving.url, headersFor(direct, item), item.body);
    const taken = counted.calls - before;
    const reference = await post(sdk.serving.url, headersFor(sdk, item), item.body);
    const what = `${item.label}: ${reference.body.slice(0, 300)}`;
    assert.deepEqual(seen(fast, direct, direct), seen(reference, sdk, direct), what);
    assert.equal(counted.calls - before, taken, `${item.label}: the server without the direct path made no direct call`);
    assert.equal(taken, item.direct ? 1 : 0, `${item.label}: ${item.direct ? 'answered directly' : 'left to the server'}`);
  }
}

const PROFILES = [
  ['libtmux', 'a session\'s direct answers are its server\'s answers, byte for byte'],
  ['python', 'a session\'s direct answers are its server\'s answers'],
  ['julia', '(capacity and JSON-RPC rules in force): a session\'s direct answers are its server\'s answers'],
] as const;

for (const [name, what] of PROFILES) {
  test(`${name} over HTTP 2025-11-25 ${what}`, async (t) => {
    const tmux = privateTmux(t);
    const { argv, ok, bad, invalid, more } = directPathCalls(await tmux.start({ session: 'same' }))[name];
    await compare(t, await cliProfile(t, ['--http', '127.0.0.1:0', ...argv], tmux.env), [
      ...commonCases(ok, bad, invalid),
      ...more.map((plain) => call(plain.name, plain.name, plain.args, true)),
      ...(name === 'julia'
        ? [
            call('a long string id', ok.name, ok.args, true, { id: 'x'.repeat(300) }),
            { label: 'a method julia does not serve (its rules answer)', direct: false, body: { jsonrpc: '2.0', id: 9, method: 'resources/list', params: {} } },
            { label: 'a method julia does not know (its rules answer)', direct: false, body: { jsonrpc: '2.0', id: 9, method: 'no/such', params: {} } },
          ]
        : []),
    ]);
  });
}

test('2025 sessions: results outside the plain shape, and a call that throws, are answered as the server answers them', async (t) => {
  await compare(t, renderingProfile(ODD_RESULTS), Object.keys(ODD_RESULTS).map((name) => call(name, name, {}, true)));
});

/** A wait of `channel` sent in `side`'s session as request `id`: the request (to drop it) and its whole answer once it ends. */
function startWait(side: Side, id: number, channel: string): { drop(): void; answer: Promise<string> } {
  const req = request(side.serving.url, { method: 'POST', headers: { ...side.session, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } });
  const answer = new Promise<string>((resolve) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('close', () => resolve(text));
    });
    req.on('error', () => resolve(''));
  });
  req.end(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wait_for_channel', arguments: { channel, timeoutMs: 60_000 } } }));
  return { drop: () => req.destroy(), answer };
}

test('2025 sessions: a directly answered wait ends, as the server\'s does, when notifications/cancelled names it or its session ends, and goes on when its client drops it', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const { direct, sdk, counted } = await servers(t, await cliProfile(t, ['--http', '127.0.0.1:0'], tmux.env));
  for (const [name, side] of [['direct', direct], ['server', sdk]] as const) {
    // Cancelled: the wait's tmux process goes, no answer is written, and the session answers its next call.
    const channel = `session-cancel-${name}-${process.pid}`;
    const before = counted.calls;
    let answered = false;
    const wait = startWait(side, 41, channel);
    void wait.answer.then(() => (answered = true));
    await until(`the ${name} wait-for process`, () => waiters(channel).length === 1);
    assert.equal(counted.calls - before, name === 'direct' ? 1 : 0);
    assert.equal((await post(side.serving.url, side.session, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 41, reason: 'enough' } })).status, 202);
    await until(`the ${name} wait-for process to go once cancelled`, () => waiters(channel).length === 0, 10_000);
    const next = await post(side.serving.url, side.session, { jsonrpc: '2.0', id: 42, method: 'tools/call', params: { name: 'list_sessions', arguments: {} } });
    assert.equal(next.status, 200);
    assert.match(next.body, /^event: message\ndata: \{"result":/);
    assert.equal(answered, false, `${name}: a cancelled call is not answered`);
    wait.drop();

    // Dropped: in 2025-11-25 a disconnection is not a cancellation, so the wait goes on until it ends.
    const channel2 = `session-drop-${name}-${process.pid}`;
    const dropped = startWait(side, 43, channel2);
    await until(`the ${name} dropped wait-for process`, () => waiters(channel2).length === 1);
    dropped.drop();
    const after = await post(side.serving.url, side.session, { jsonrpc: '2.0', id: 44, method: 'tools/call', params: { name: 'list_sessions', arguments: {} } });
    assert.match(after.body, /^event: message\ndata: \{"result":/);
    assert.equal(waiters(channel2).length, 1, `${name}: the dropped request's wait goes on`);
    await tmux.tmux('wait-for', '-S', channel2);
    await until(`the ${name} dropped wait to end once its channel is signalled`, () => waiters(channel2).length === 0, 10_000);

    // The session ended (DELETE): the wait ends, and its POST ends without an answer.
    const channel3 = `session-delete-${name}-${process.pid}`;
    const ended = startWait(side, 45, channel3);
    await until(`the ${name} wait-for process before DELETE`, () => waiters(channel3).length === 1);
    const deleted = await new Promise<number>((resolve, reject) => request(side.serving.url, { method: 'DELETE', headers: side.session }, (res) => resolve(res.statusCode!)).on('error', reject).end());
    assert.equal(deleted, 200);
    assert.equal(await ended.answer, '', `${name}: the ended session's POST closes empty`);
    await until(`the ${name} wait-for process to go once its session ended`, () => waiters(channel3).length === 0, 10_000);
  }
});
