/**
 * What src/mcp serves besides tools, for any profile that declares it: prompts, resource templates,
 * and completions for their arguments (tmux ids from a real tmux server), each capability advertised
 * only when something backs it. Driven through the SDK client in both eras (in memory).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { EngineRegistry } from '../../src/core/servers/registry.js';
import { Failure } from '../../src/core/failure.js';
import { tmuxIdCompleters } from '../../src/mcp/surface/completions.js';
import { createServerFactory } from '../../src/mcp/server.js';
import type { Profile } from '../../src/mcp/profile.js';
import { privateTmux, TMUX_BIN } from '../fixture/tmux.js';
import { listSessions } from '../../src/core/index.js';

function profileWith(extra: Partial<Profile<null>>): Profile<null> {
  return { name: 'surface', serverInfo: { name: 'surface', version: '0' }, tools: [], context: null, ...extra };
}

/** A client on an in-memory pipe served by the SDK's own era handling, as over stdio. */
async function connect(t: { after: (fn: () => Promise<void>) => void }, profile: Profile<null>, mode: 'legacy' | 'auto'): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(createServerFactory(profile), { transport: serverSide });
  const client = new Client({ name: 'surface-test', version: '0' }, { versionNegotiation: { mode } });
  await client.connect(clientSide);
  t.after(async () => {
    await client.close();
    await served.close();
  });
  return client;
}

test('a profile with only tools advertises neither prompts, resources nor completions', async (t) => {
  const client = await connect(t, profileWith({}), 'legacy');
  const capabilities = client.getServerCapabilities() ?? {};
  assert.deepEqual(Object.keys(capabilities).sort(), ['tools']);
  await assert.rejects(client.complete({ ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'a', value: '' } }), /Method not found/);
});

for (const mode of ['auto', 'legacy'] as const) {
  test(`prompts, templates and tmux id completions (${mode === 'auto' ? '2026-07-28' : '2025-11-25'})`, async (t) => {
    const tmux = privateTmux(t);
    const first = await tmux.start({ session: 'alpha' });
    await tmux.newSession('beta');
    const registry = new EngineRegistry({
      bin: TMUX_BIN,
      commandTimeoutMs: 5000,
      engine: { waitMaxMs: 10_000 },
      defaultLocation: { socketPath: tmux.socketPath },
    });
    t.after(() => registry.close());
    const ids = tmuxIdCompleters((work) => work(registry.defaultEngine));
    const profile = profileWith({
      prompts: [
        {
          name: 'inspect-pane',
          description: 'Look at one pane.',
          arguments: [
            { name: 'paneId', description: 'the pane', required: true, complete: ids.pane },
            { name: 'note', description: 'free text' },
          ],
          render: (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `capture_pane ${args.paneId}` } }] }),
        },
      ],
      resourceTemplates: [
        {
          uriTemplate: 'tmux://sessions/{session}',
          name: 'session',
          mimeType: 'application/json',
          complete: { session: ids.sessionName },
          async read({ session }) {
            const found = (await listSessions(registry.defaultEngine)).find((s) => s.name === session);
            if (!found) throw new Failure('not_found', `no session ${session}`, 'list_sessions names them');
            return JSON.stringify({ id: found.id, name: found.name });
          },
        },
      ],
    });
    const client = await connect(t, profile, mode);
    assert.equal(client.getProtocolEra(), mode === 'auto' ? 'modern' : 'legacy');
    const capabilities = client.getServerCapabilities() ?? {};
    assert.deepEqual(Object.keys(capabilities).sort(), ['completions', 'prompts', 'resources', 'tools']);

    const { prompts } = await client.listPrompts();
    assert.deepEqual(
      prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])]),
      [
        [
          'inspect-pane',
          [
            ['paneId', true],
            ['note', false],
          ],
        ],
      ],
    );
    const got = await client.getPrompt({ name: 'inspect-pane', arguments: { paneId: first } });
    assert.deepEqual(got.messages[0]!.content, { type: 'text', text: `capture_pane ${first}` });
    await assert.rejects(client.getPrompt({ name: 'inspect-pane', arguments: {} }), /missing required argument\(s\) paneId/);
    await assert.rejects(client.getPrompt({ name: 'inspect-pane', arguments: { paneId: first, pane: 'x' } }), /unknown argument\(s\) pane/);
    await assert.rejects(client.getPrompt({ name: 'nope' }), /unknown prompt "nope"/);

    const panes = await client.complete({ ref: { type: 'ref/prompt', name: 'inspect-pane' }, argument: { name: 'paneId', value: '%' } });
    assert.deepEqual(panes.completion.values, (await tmux.tmux('list-panes', '-a', '-F', '#{pane_id}')).trim().split('\n'));
    const sessions = await client.complete({
      ref: { type: 'ref/resource', uri: 'tmux://sessions/{session}' },
      argument: { name: 'session', value: 'b' },
    });
    assert.deepEqual(sessions.completion.values, ['beta']);
    // Nothing to suggest is an empty answer, not an error: for an argument without a completer, or a ref not served.
    for (const ref of [
      { type: 'ref/prompt' as const, name: 'inspect-pane' },
      { type: 'ref/prompt' as const, name: 'elsewhere' },
    ]) {
      const none = await client.complete({ ref, argument: { name: 'note', value: 'x' } });
      assert.deepEqual(none.completion, { values: [], total: 0, hasMore: false });
    }

    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((r) => r.uriTemplate),
      ['tmux://sessions/{session}'],
    );
    const read = await client.readResource({ uri: 'tmux://sessions/alpha' });
    assert.equal(JSON.parse((read.contents[0] as { text: string }).text).name, 'alpha');
    await assert.rejects(client.readResource({ uri: 'tmux://sessions/gamma' }), /no session gamma\. list_sessions names them/);
    await assert.rejects(client.readResource({ uri: 'tmux://elsewhere' }), /no resource at tmux:\/\/elsewhere/);
  });
}
