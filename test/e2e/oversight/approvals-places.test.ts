/**
 * --approve rules limited to a place, against real tmux: `SESSION:` rules hold only in matching
 * sessions, `HOST:` rules only on that host (reached over a loopback sshd), a call under a scope
 * is refused by the scope without anyone being asked, and with a client and the view both able to
 * answer, the first answer wins and the question is withdrawn from the other.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startMcp } from '../../fixture/mcp.js';
import { hostArgs, hostServers } from '../../fixture/hosts.js';
import { privateTmux } from '../../fixture/tmux.js';
import { until } from '../../fixture/until.js';
import { auditPath, elicitingClient, neverTyped, questionLines, untilWithdrawn } from '../../fixture/approvals.js';
import { browser, viewUrl } from '../../fixture/view.js';

const NO_ONE = /needs a person's approval \(--approve [^)]+\), and no one can be asked/;

test('places: a SESSION: rule holds in matching sessions only; under a scope, a target outside is refused without a question', async (t) => {
  const tmux = privateTmux(t);
  const prod = await tmux.start({ session: 'prod-db' });
  const dev = await tmux.newSession('dev');
  const audit = auditPath(t);
  const mcp = await startMcp(t, {
    env: tmux.env,
    args: ['--approve', 'prod-*:tool:send_keys', '--allow-session', 'prod-*', '--audit', audit],
  });
  const refused = await mcp.fails('send_keys', { paneId: prod, keys: ['echo in-prod-1'], literal: true, enter: true });
  assert.match(refused, NO_ONE);
  await neverTyped(tmux, prod, 'in-prod-1');
  // Outside the scope: the scope's own refusal, and no question.
  assert.match(
    await mcp.fails('send_keys', { paneId: dev, keys: ['echo in-dev-2'], literal: true, enter: true }),
    /outside this server's scope/,
  );
  assert.deepEqual(
    questionLines(audit).map((line) => line.approval.answer),
    ['refused'],
  );

  const open = await startMcp(t, { env: tmux.env, args: ['--approve', 'prod-*:tool:send_keys'] });
  await open.ok('send_keys', { paneId: dev, keys: ['echo in-dev-3'], literal: true, enter: true });
  await until('the dev call ran', async () => /^in-dev-3$/m.test(await tmux.tmux('capture-pane', '-p', '-t', dev)));
});

test('places: a HOST: rule holds on that host only', async (t) => {
  const servers = await hostServers(t);
  const mcp = await startMcp(t, {
    env: { ...servers.local.env, TMUX_MCP_SSH_CONFIG: servers.sshd.config },
    args: [...hostArgs(servers), '--approve', 'a:tool:send_keys', '--approve', 'b:beta:text:danger'],
  });
  assert.match(await mcp.fails('send_keys', { paneId: 'a:%0', keys: ['echo on-a-1'], literal: true, enter: true }), NO_ONE);
  await neverTyped(servers.a, '%0', 'on-a-1');
  assert.match(await mcp.fails('send_keys', { paneId: 'b:%0', keys: ['echo danger-b-2'], literal: true, enter: true }), NO_ONE);
  await neverTyped(servers.b, '%0', 'danger-b-2');
  // The same calls elsewhere run.
  await mcp.ok('send_keys', { paneId: '%0', keys: ['echo danger-here-3'], literal: true, enter: true });
  await mcp.ok('send_keys', { paneId: 'b:%0', keys: ['echo fine-b-4'], literal: true, enter: true });
  await until(
    'both ran',
    async () =>
      /^danger-here-3$/m.test(await servers.local.tmux('capture-pane', '-p', '-t', '%0')) &&
      /^fine-b-4$/m.test(await servers.b.tmux('capture-pane', '-p', '-t', '%0')),
  );
});

test('channels: with a client that can be asked and the view, the first answer wins and the other is withdrawn', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const token = 'view-token-0123456789abcdef';
  const client = elicitingClient((_, signal) => untilWithdrawn(signal));
  // 2025-11-25: the server holds the call, so both channels can answer it.
  const mcp = await startMcp(t, {
    env: { ...tmux.env, TMUX_MCP_TOKEN: token },
    args: ['--view', '127.0.0.1:0', '--approve', 'text:rm\\s+-rf'],
    negotiation: 'legacy',
    client: client.setup,
  });
  const url = await viewUrl(mcp.stderr);
  const page = await (await browser(t)).newPage();
  await page.goto(`${url}?token=${token}`);

  const call = mcp.call('send_keys', { paneId: pane, keys: ['echo rm -rf both-1'], literal: true, enter: true });
  await until('asked in the client', () => client.asked.length === 1);
  await page.waitForSelector('#questions li .approve', { timeout: 5000 });
  await page.click('#questions li .approve');
  assert.equal((await call).isError, undefined);
  await until("the client's question withdrawn", () => client.asked[0]!.withdrawn);
  await until('the approved command ran', async () => /^rm -rf both-1$/m.test(await tmux.tmux('capture-pane', '-p', '-t', pane)));

  // A call cancelled while it waits leaves both: the client's question is withdrawn, the page's panel empties.
  const controller = new AbortController();
  const cancelled = mcp.client.callTool(
    { name: 'send_keys', arguments: { paneId: pane, keys: ['echo rm -rf gone-2'], literal: true, enter: true } },
    { signal: controller.signal },
  );
  await page.waitForSelector('#questions li .approve', { timeout: 5000 });
  await until('asked in the client again', () => client.asked.length === 2);
  controller.abort();
  await assert.rejects(cancelled);
  await until('withdrawn from the client', () => client.asked[1]!.withdrawn);
  await page.waitForFunction(() => document.querySelectorAll('#questions li').length === 0, { timeout: 5000 });
  await neverTyped(tmux, pane, 'gone-2');
});
