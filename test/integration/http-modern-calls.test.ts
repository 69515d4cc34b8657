/**
 * The plain 2026-07-28 tools/call and tools/list answered without a server (modern-calls.ts) are the
 * SDK entry's answers, byte for byte: the same requests, plain and not, go to one server with the
 * direct path and one without (same profile, same tmux), and status, content type, length and body
 * must match. A factory that counts the servers it builds shows which requests took the direct path.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createServerFactory, type Profile, type ServerFactory } from '../../src/mcp/server.js';
import { serveHttp } from '../../src/mcp/http/serve.js';
import { post } from '../fixture/http.js';
import { cliProfile, directPathCalls, httpOptionsFor, ODD_RESULTS, renderingProfile } from '../fixture/profile.js';
import { privateTmux } from '../fixture/tmux.js';

const TOKEN = 'test-token-0123456789';
const VERSION = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'compare', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Case {
  readonly label: string;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
  /** Whether the direct path answers it (no server of the factory built); else the SDK's entry does. */
  readonly direct: boolean;
}

/** A tools/call as the SDK client sends it, its headers derived from the body unless given. */
function call(label: string, name: string, args: unknown, direct: boolean, change: { meta?: unknown; headers?: Record<string, string>; id?: unknown; params?: Record<string, unknown> } = {}): Case {
  const params = { name, ...(args === undefined ? {} : { arguments: args }), _meta: change.meta ?? ENVELOPE, ...change.params };
  return {
    label,
    direct,
    body: { method: 'tools/call', params, jsonrpc: '2.0', id: change.id ?? 7 },
    headers: { 'mcp-method': 'tools/call', 'mcp-name': name, 'mcp-protocol-version': VERSION, ...change.headers },
  };
}

function list(label: string, direct: boolean, params: Record<string, unknown> = { _meta: ENVELOPE }, headers: Record<string, string> = {}): Case {
  return { label, direct, body: { method: 'tools/list', jsonrpc: '2.0', id: 'list-1', params }, headers: { 'mcp-method': 'tools/list', 'mcp-protocol-version': VERSION, ...headers } };
}

/** The requests every profile is asked, given a tool that succeeds with `ok` and one pane. */
function commonCases(ok: { name: string; args: unknown }, bad: { name: string; args: unknown }, invalid: { name: string; args: unknown }): Case[] {
  const { name, args } = ok;
  return [
    call('a plain call', name, args, true),
    call('a plain call, string id', name, args, true, { id: 'call-a' }),
    call('a tool error', bad.name, bad.args, true),
    call('invalid arguments (a tool error)', invalid.name, invalid.args, true),
    call('no arguments at all', name, undefined, true),
    call('a client with a title, roots and empty capabilities', name, args, true, {
      meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1', title: 'C' }, 'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: true }, sampling: {}, elicitation: {} } },
    }),
    call('no clientInfo', name, args, true, { meta: { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} } }),
    call('an unknown tool', 'no_such_tool', {}, false),
    call('a wrong Mcp-Name', name, args, false, { headers: { 'mcp-name': 'other_tool' } }),
    call('an Mcp-Name in base64', name, args, false, { headers: { 'mcp-name': `=?base64?${Buffer.from(name).toString('base64')}?=` } }),
    call('no Mcp-Name', name, args, false, { headers: { 'mcp-name': '' } }),
    call('a wrong Mcp-Method', name, args, false, { headers: { 'mcp-method': 'tools/list' } }),
    call('no MCP-Protocol-Version header', name, args, false, { headers: { 'mcp-protocol-version': '' } }),
    call('a header version unlike the body', name, args, false, { headers: { 'mcp-protocol-version': '2025-11-25' } }),
    call('an unsupported modern version', name, args, false, { meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' }, headers: { 'mcp-protocol-version': '2027-01-01' } }),
    call('no clientCapabilities', name, args, false, { meta: { 'io.modelcontextprotocol/protocolVersion': VERSION } }),
    call('clientInfo without a version', name, args, false, { meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': { name: 'c' } } }),
    call('an odd capability', name, args, false, { meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: 'yes' } } } }),
    call('a log level in the envelope', name, args, false, { meta: { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'debug' } }),
    call('a progress token', name, args, false, { meta: { ...ENVELOPE, progressToken: 'p1' } }),
    call('arguments that are not an object', name, [1], false),
    call('a numeric name', name, args, false, { params: { name: 5 } }),
    call('a fractional id', name, args, false, { id: 1.5 }),
    call('requestState', name, args, false, { params: { requestState: 'x' } }),
    { label: 'a text/plain body', direct: false, body: JSON.stringify(call('', name, args, true).body), headers: { ...call('', name, args, true).headers, 'content-type': 'text/plain' } },
    { label: 'an Accept of text/html only (the entry does not read Accept)', direct: true, body: call('', name, args, true).body, headers: { ...call('', name, args, true).headers, accept: 'text/html' } },
    { label: 'a notification', direct: false, body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, _meta: ENVELOPE } }, headers: { 'mcp-method': 'notifications/cancelled', 'mcp-protocol-version': VERSION } },
    { label: 'a batch', direct: false, body: [call('', name, args, true).body], headers: { 'mcp-protocol-version': VERSION } },
    list('tools/list', true),
    list('tools/list with a cursor', false, { _meta: ENVELOPE, cursor: 'x' }),
    list('tools/list without its Mcp-Method', false, { _meta: ENVELOPE }, { 'mcp-method': '' }),
  ];
}

type After = { after: (fn: () => Promise<void> | void) => void };

/** Both servers of one profile (the direct path on and off), sharing its context and engine. */
async function servers(t: After, profile: Profile<unknown>) {
  const factory = createServerFactory(profile);
  const built = { direct: 0, sdk: 0 };
  const counted = (side: keyof typeof built): ServerFactory => Object.assign(() => (built[side]++, factory()), { calls: factory.calls });
  const errors: string[] = [];
  const options = { ...httpOptionsFor(profile, TOKEN), onerror: (error: Error) => errors.push(error.message) };
  const direct = await serveHttp(counted('direct'), options);
  const sdk = await serveHttp(counted('sdk'), { ...options, directCalls: false });
  t.after(async () => {
    await direct.close();
    await sdk.close();
  });
  return { direct, sdk, built, errors };
}

async function compare(t: After, profile: Profile<unknown>, cases: Case[]): Promise<void> {
  const { direct, sdk, built } = await servers(t, profile);
  for (const item of cases) {
    // An empty value stands for a header left out.
    const headers = Object.fromEntries(Object.entries({ authorization: `Bearer ${TOKEN}`, ...item.headers }).filter(([, value]) => value !== ''));
    const before = { ...built };
    const fast = await post(direct.url, headers, item.body);
    const reference = await post(sdk.url, headers, item.body);
    const servers = { direct: built.direct - before.direct, sdk: built.sdk - before.sdk };
    const what = `${item.label}: ${reference.body.slice(0, 300)}`;
    assert.equal(fast.status, reference.status, what);
    assert.equal(fast.headers['content-type'], reference.headers['content-type'], what);
    assert.equal(fast.headers['content-length'], reference.headers['content-length'], what);
    assert.equal(fast.body, reference.body, what);
    // The SDK's entry builds a server for what reaches a handler; the direct path builds none.
    const expected = item.direct ? { direct: 0, sdk: 1 } : { direct: servers.sdk, sdk: servers.sdk };
    assert.deepEqual(servers, expected, `${item.label}: ${item.direct ? 'answered directly' : 'left to the SDK'}`);
  }
}

const PROFILES = [
  ['libtmux', 'the direct answers are the SDK entry answers, byte for byte'],
  ['python', '(templates, prompts and every tool listed): the direct answers are the SDK entry answers'],
  ['julia', '(capacity and JSON-RPC rules in force): the direct answers are the SDK entry answers'],
] as const;

for (const [name, what] of PROFILES) {
  test(`${name} over HTTP 2026-07-28 ${what}`, async (t) => {
    const tmux = privateTmux(t);
    const { argv, ok, bad, invalid, more } = directPathCalls(await tmux.start({ session: 'same' }))[name];
    await compare(t, await cliProfile(t, ['--http', '127.0.0.1:0', ...argv], tmux.env), [
      ...commonCases(ok, bad, invalid),
      ...more.map((plain) => call(plain.name, plain.name, plain.args, true)),
      ...(name === 'julia' ? [call('a long string id', ok.name, ok.args, true, { id: 'x'.repeat(300) })] : []),
    ]);
  });
}

test('results outside the plain shape, and a call that throws, are answered as the SDK answers them', async (t) => {
  // Rendered results the profiles do not make: each is answered directly only when its bytes can be the SDK's.
  const { listed: _, ...rendered } = ODD_RESULTS;
  await compare(t, renderingProfile(rendered), [
    call('keys and a block out of the schema order', 'reordered', {}, true),
    // Answered by the direct path too: the call ran there, and only its answer is made by the SDK's transport.
    ...['annotated', 'extra', 'image', 'invalid', 'throws'].map((name) => call(`${name}: the answer made by the SDK's transport`, name, {}, true)),
  ]);
});
