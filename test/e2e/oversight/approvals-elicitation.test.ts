/**
 * --approve through MCP elicitation, in both protocol eras, through the SDK client with an
 * elicitation handler against real tmux: a call a rule meets runs only once a person approves it in
 * the client (2025-11-25: an elicitation/create request during the call; 2026-07-28: an
 * input_required answer the client fulfils and retries); denied, unanswered or cancelled it types
 * nothing; two questions at once are answered each on its own; a sealed requestState cannot be
 * forged, altered or used twice; a client that cannot be asked is refused at once. Each question
 * is an audit line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectHttp, ERAS, startMcp } from '../../fixture/mcp.js';
import { startHttp } from '../../fixture/http.js';
import { privateTmux } from '../../fixture/tmux.js';
import { until } from '../../fixture/until.js';
import {
  APPROVE,
  auditPath,
  deny,
  elicitingClient,
  neverTyped,
  questionLines,
  untilWithdrawn,
  type Reply,
} from '../../fixture/approvals.js';

const RULE = 'text:rm\\s+-rf';

for (const [negotiation, era, version] of ERAS) {
  test(`elicitation ${version}: approved runs as asked, denied with a reason types nothing, the question names tool, target, text and rule`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start({ session: 'agent' });
    const audit = auditPath(t);
    const replies: Reply[] = [APPROVE, deny('not on this box')];
    const client = elicitingClient(() => replies.shift()!);
    const mcp = await startMcp(t, { env: tmux.env, args: ['--approve', RULE, '--audit', audit], negotiation, client: client.setup });
    assert.equal(mcp.client.getNegotiatedProtocolVersion(), version);

    // Split over two keys, the text still reads "rm -rf": asked, approved, typed.
    const sent = await mcp.ok('send_keys', { paneId: pane, keys: ['echo rm -', 'rf approved-1'], literal: true, enter: true });
    assert.deepEqual(sent.keys, ['echo rm -', 'rf approved-1', 'Enter']);
    await until('the approved command ran', async () => /^rm -rf approved-1$/m.test(await tmux.tmux('capture-pane', '-p', '-t', pane)));
    assert.equal(client.asked.length, 1);
    const question = client.asked[0]!.message;
    for (const fact of ['send_keys', `local:${pane}`, 'session agent', 'echo rm -rf approved-1', RULE])
      assert.ok(question.includes(fact), `${fact} in:\n${question}`);

    const refused = await mcp.fails('send_keys', { paneId: pane, keys: ['echo rm -rf denied-2'], literal: true, enter: true });
    assert.match(
      refused,
      /send_keys was denied by a person in the client \(--approve text:rm\\s\+-rf\): not on this box; nothing was sent/,
    );
    await neverTyped(tmux, pane, 'denied-2');

    // A call no rule meets runs without a question.
    await mcp.ok('send_keys', { paneId: pane, keys: ['echo plain-3'], literal: true, enter: true });
    assert.equal(client.asked.length, 2);

    const lines = questionLines(audit);
    assert.deepEqual(
      lines.map((line) => [line.tool, line.approval.answer, line.approval.channel, line.approval.rule, line.approval.reason]),
      [
        ['send_keys', 'approved', 'elicitation', RULE, undefined],
        ['send_keys', 'denied', 'elicitation', RULE, 'not on this box'],
      ],
    );
    assert.match(lines[1]!.error!, /denied by a person/);
  });

  test(`elicitation ${version}: unanswered within --approve-timeout, refused with nothing typed`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start();
    const audit = auditPath(t);
    // 2025: the question stays open until the server withdraws it. 2026: the answer comes back after the deadline.
    const client = elicitingClient((_, signal) =>
      negotiation === 'legacy' ? untilWithdrawn(signal) : new Promise<Reply>((resolve) => setTimeout(() => resolve(APPROVE), 1600)),
    );
    const mcp = await startMcp(t, {
      env: tmux.env,
      args: ['--approve', RULE, '--approve-timeout', '1', '--audit', audit],
      negotiation,
      client: client.setup,
    });
    const refused = await mcp.fails('send_keys', { paneId: pane, keys: ['echo rm -rf late-1'], literal: true, enter: true });
    assert.match(refused, /send_keys was not approved within 1 s \(--approve text:rm\\s\+-rf\) \(--approve-timeout\); nothing was sent/);
    if (negotiation === 'legacy') assert.equal(client.asked[0]?.withdrawn, true, 'the open question was withdrawn from the client');
    await neverTyped(tmux, pane, 'late-1');
    assert.deepEqual(
      questionLines(audit).map((line) => line.approval.answer),
      ['timeout'],
    );
  });

  test(`elicitation ${version}: a call cancelled while it waits types nothing, and its question is withdrawn`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start();
    const audit = auditPath(t);
    const client = elicitingClient((_, signal) => untilWithdrawn(signal));
    const mcp = await startMcp(t, { env: tmux.env, args: ['--approve', RULE, '--audit', audit], negotiation, client: client.setup });
    const controller = new AbortController();
    const call = mcp.client.callTool(
      { name: 'send_keys', arguments: { paneId: pane, keys: ['echo rm -rf cancelled-1'], literal: true, enter: true } },
      { signal: controller.signal },
    );
    await until('the question reached the client', () => client.asked.length === 1);
    controller.abort();
    await assert.rejects(call, /abort/i);
    if (negotiation === 'legacy') {
      // The server holds the call in this era: cancelling it withdraws its question from the client.
      await until('the question withdrawn', () => client.asked[0]!.withdrawn);
      await until('the question line', () => questionLines(audit).length === 1);
      assert.deepEqual(
        questionLines(audit).map((line) => line.approval.answer),
        ['cancelled'],
      );
    }
    await neverTyped(tmux, pane, 'cancelled-1');
    // The server goes on answering.
    await mcp.ok('list_sessions');
  });

  test(`elicitation ${version}: two questions at once, each answered on its own`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start();
    const other = await tmux.newSession('other');
    const waiting: Array<{ message: string; reply: (reply: Reply) => void }> = [];
    const client = elicitingClient((asked) => new Promise<Reply>((resolve) => waiting.push({ message: asked.message, reply: resolve })));
    const mcp = await startMcp(t, { env: tmux.env, args: ['--approve', RULE], negotiation, client: client.setup });
    const first = mcp.call('send_keys', { paneId: pane, keys: ['echo rm -rf first-1'], literal: true, enter: true });
    const second = mcp.call('send_keys', { paneId: other, keys: ['echo rm -rf second-2'], literal: true, enter: true });
    await until('both questions asked', () => waiting.length === 2);
    // Answered in the other order: the deny goes to the first call, the approval to the second.
    waiting.find((each) => each.message.includes('second-2'))!.reply(APPROVE);
    waiting.find((each) => each.message.includes('first-1'))!.reply(deny('one at a time'));
    const [one, two] = await Promise.all([first, second]);
    assert.equal(one.isError, true);
    assert.match(one.content[0]!.text!, /one at a time/);
    assert.equal(two.isError, undefined);
    await until('the approved one ran', async () => /^rm -rf second-2$/m.test(await tmux.tmux('capture-pane', '-p', '-t', other)));
    await neverTyped(tmux, pane, 'first-1');
  });

  test(`elicitation ${version}: a client that cannot be asked is refused at once, naming the rule and how to get approvals`, async (t) => {
    const tmux = privateTmux(t);
    const pane = await tmux.start();
    const audit = auditPath(t);
    const mcp = await startMcp(t, {
      env: tmux.env,
      args: ['--approve', 'tool:send_*', '--approve', 'destructive', '--audit', audit],
      negotiation,
    });
    const refused = await mcp.fails('send_keys', { paneId: pane, keys: ['echo nobody-1'], literal: true, enter: true });
    assert.match(
      refused,
      /send_keys needs a person's approval \(--approve tool:send_\*\), and no one can be asked: this client does not support MCP elicitation and the server has no --view; nothing was sent/,
    );
    assert.match(refused, /a client that supports elicitation.*--view/);
    await neverTyped(tmux, pane, 'nobody-1');
    // Reads are never asked about, even under `destructive` (the contract marks every tool so).
    await mcp.ok('list_sessions');
    assert.deepEqual(
      questionLines(audit).map((line) => [line.approval.answer, line.approval.rule]),
      [['refused', 'tool:send_*']],
    );
  });
}

test('elicitation 2026-07-28: a forged, altered, replayed or borrowed requestState is refused before anything runs', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const client = elicitingClient(() => APPROVE, { inputRequired: { autoFulfill: false } });
  const mcp = await startMcp(t, { env: tmux.env, args: ['--approve', RULE], negotiation: 'auto', client: client.setup });
  const args = { paneId: pane, keys: ['echo rm -rf sealed-1'], literal: true, enter: true };
  // The plain request (manual mode): callTool would hold an input_required answer to the tool's output schema.
  const call = (params: object) => mcp.client.request({ method: 'tools/call', params: params as never }, { allowInputRequired: true });
  const first = (await call({ name: 'send_keys', arguments: args })) as unknown as {
    resultType: string;
    inputRequests: Record<string, { method: string; params: { message: string } }>;
    requestState: string;
  };
  assert.equal(first.resultType, 'input_required');
  assert.deepEqual(Object.keys(first.inputRequests), ['call']);
  assert.equal(first.inputRequests.call!.method, 'elicitation/create');
  assert.match(first.inputRequests.call!.params.message, /echo rm -rf sealed-1/);
  const state = first.requestState;
  const approved = { call: { action: 'accept', content: { decision: 'approve' } } };
  const retry = (requestState: string, callArgs: object = args) =>
    call({ name: 'send_keys', arguments: callArgs, inputResponses: approved, requestState });
  const invalid = /Invalid or expired requestState/;

  // Forged: not minted by this server. Altered: one character of a real one changed.
  await assert.rejects(retry('v1.eyJwIjp7fX0.AAAA'), invalid);
  const altered = state.slice(0, 10) + (state[10] === 'A' ? 'B' : 'A') + state.slice(11);
  await assert.rejects(retry(altered), invalid);
  // Borrowed: a real state, for another call (other arguments).
  await assert.rejects(retry(state, { ...args, keys: ['echo rm -rf other-2'] }), invalid);
  await neverTyped(tmux, pane, 'sealed-1');
  // The borrowed try spent the state: a state is good for one retry only, so the right call now needs a new question.
  await assert.rejects(retry(state), invalid);

  const again = (await call({ name: 'send_keys', arguments: args })) as unknown as { requestState: string };
  const ran = await retry(again.requestState);
  assert.equal((ran as { isError?: boolean }).isError, undefined, JSON.stringify(ran));
  await until('the approved command ran', async () => /^rm -rf sealed-1$/m.test(await tmux.tmux('capture-pane', '-p', '-t', pane)));
  // Replayed: the same answer again does not run the call a second time.
  await assert.rejects(retry(again.requestState), invalid);
});

test('elicitation: python answers a denial with its error _meta, julia with its envelope, effects none', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const client = elicitingClient(() => deny('no'));
  const python = await startMcp(t, {
    env: tmux.env,
    args: ['--profile', 'python', '--approve', RULE],
    negotiation: 'legacy',
    client: client.setup,
  });
  const refused = await python.call('send_keys', { pane_id: pane, keys: 'echo rm -rf python-1' });
  assert.equal(refused.isError, true);
  assert.deepEqual((refused as { _meta?: { error_type?: string; expected?: boolean } })._meta?.error_type, 'ApprovalDenied');
  assert.match(refused.content[0]!.text!, /denied by a person in the client .*: no; nothing was sent/);

  const julia = await startMcp(t, {
    env: tmux.env,
    args: ['--profile', 'julia', '--approve', RULE],
    negotiation: 'auto',
    client: elicitingClient(() => deny('no')).setup,
  });
  const { panes } = await julia.ok('list_panes');
  const target = {
    paneId: pane,
    generation: panes.find((row: { target: { paneId: string } }) => row.target.paneId === pane).target.generation,
  };
  const envelope = await julia.call('send_keys', { target, keys: ['echo rm -rf julia-2', 'Enter'] });
  assert.equal(envelope.isError, true);
  const { error } = envelope.structuredContent as { error: { code: string; effects: string; message: string } };
  assert.deepEqual([error.code, error.effects], ['approval_denied', 'none']);
  assert.match(error.message, /denied by a person in the client/);
  await neverTyped(tmux, pane, 'python-1');
  await neverTyped(tmux, pane, 'julia-2');
});

test('elicitation over HTTP in both eras: asked during the call (2025 session) or by input_required (2026), approved and denied', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const server = await startHttp(t, { env: tmux.env, args: ['--approve', RULE] });
  for (const [negotiation, , version] of ERAS) {
    const replies: Reply[] = [APPROVE, deny(`no over ${version}`)];
    const client = elicitingClient(() => replies.shift()!);
    const mcp = await connectHttp(t, { url: server.url, token: server.token, negotiation, client: client.setup });
    assert.equal(mcp.client.getNegotiatedProtocolVersion(), version);
    const ran = await mcp.client.callTool({
      name: 'send_keys',
      arguments: { paneId: pane, keys: [`echo rm -rf http-${version}`], literal: true, enter: true },
    });
    assert.equal(ran.isError, undefined, JSON.stringify(ran));
    await until('the approved command ran', async () =>
      new RegExp(`^rm -rf http-${version}$`, 'm').test(await tmux.tmux('capture-pane', '-p', '-t', pane)),
    );
    const refused = await mcp.client.callTool({
      name: 'send_keys',
      arguments: { paneId: pane, keys: [`echo rm -rf denied-${version}`], literal: true, enter: true },
    });
    assert.equal(refused.isError, true);
    assert.match(
      (refused.content as Array<{ text: string }>)[0]!.text,
      new RegExp(`denied by a person in the client .*: no over ${version}`),
    );
    await neverTyped(tmux, pane, `denied-${version}`);
    assert.equal(client.asked.length, 2);
  }
});

test("elicitation 2026-07-28: a batch's questions are put at once, before it starts, each answered on its own", async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const screens: string[] = [];
  const client = elicitingClient(async (asked) => {
    screens.push(await tmux.tmux('capture-pane', '-p', '-t', pane));
    return /first-0/.test(asked.message) ? APPROVE : deny('not the third');
  });
  const mcp = await startMcp(t, { env: tmux.env, args: ['--approve', RULE], negotiation: 'auto', client: client.setup });
  const op = (text: string) => ({ paneId: pane, keys: [text], literal: true, enter: true });
  const result = await mcp.ok('send_keys_batch', {
    operations: [op('echo rm -rf first-0'), op('echo second-1'), op('echo rm -rf third-2')],
  });
  assert.equal(client.asked.length, 2);
  assert.match(client.asked[0]!.message, /send_keys_batch operations\[0\] send_keys/);
  // Asked before anything of the batch was typed: the protocol answers a call with questions only before it runs.
  for (const screen of screens) assert.ok(!screen.includes('first-0'), screen);
  assert.equal(result.completed, 2);
  assert.equal(result.failures.length, 1);
  assert.equal(result.failures[0].index, 2);
  assert.match(result.failures[0].reason, /operations\[2\] \(send_keys\) was denied by a person in the client .*: not the third/);
  await until('the approved items ran', async () => /^second-1$/m.test(await tmux.tmux('capture-pane', '-p', '-t', pane)));
  await neverTyped(tmux, pane, 'third-2');
});

test('elicitation: a server stopping while a call waits answers it (nothing sent) and withdraws the question', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const server = await startHttp(t, { env: tmux.env, args: ['--approve', RULE] });
  const client = elicitingClient((_, signal) => untilWithdrawn(signal));
  const mcp = await connectHttp(t, { url: server.url, token: server.token, negotiation: 'legacy', client: client.setup });
  const call = mcp.client.callTool({
    name: 'send_keys',
    arguments: { paneId: pane, keys: ['echo rm -rf stopping-1'], literal: true, enter: true },
  });
  await until('asked', () => client.asked.length === 1);
  const stopped = server.stop();
  const answer = await call;
  assert.equal(answer.isError, true);
  assert.match(
    (answer.content as Array<{ text: string }>)[0]!.text,
    /send_keys did not run: the server is stopping while it waited for approval; nothing was sent/,
  );
  assert.equal(client.asked[0]!.withdrawn, true);
  assert.equal(await stopped, 0);
  await neverTyped(tmux, pane, 'stopping-1');
});
