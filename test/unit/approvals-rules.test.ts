/**
 * The pieces of --approve that need no tmux: the flags and variables (each mistake refused before
 * start-up), the rule grammar (tool:GLOB, destructive, text:REGEX, after HOST:, SESSION: or
 * HOST:SESSION:), which rules a unit meets, how keys read as the text a pane receives (key names,
 * line editing, the line earlier input left), the bounded memory of unfinished lines, and the
 * board's answers and pause.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../src/config.js';
import { parseCli } from '../../src/cli/options.js';
import { readTyped, typedCommand, typedKeys, typedText } from '../../src/core/act/typed-text.js';
import { ApprovalBoard, type Answer, type PendingQuestion } from '../../src/mcp/approvals/board.js';
import { paneKey, UnfinishedLines } from '../../src/mcp/approvals/lines.js';
import { parseRules, placeHolds, RuleError, RuleSet } from '../../src/mcp/approvals/rules.js';

function config(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const action = parseCli(argv, env);
  if (action.kind !== 'serve') throw new Error('not a serve action');
  return action.config;
}
const refused = (argv: string[], message: RegExp, env: NodeJS.ProcessEnv = {}) =>
  assert.throws(
    () => parseCli(argv, env),
    (error: unknown) => error instanceof ConfigError && message.test(error.message),
  );

test('--approve, TMUX_MCP_APPROVE, --approve-timeout, --start-paused', () => {
  assert.equal(config([]).approvals, undefined);
  assert.deepEqual(config(['--approve', 'destructive', '--approve', 'text:rm,-rf']).approvals, {
    rules: ['destructive', 'text:rm,-rf'],
    timeoutMs: 120_000,
    startPaused: false,
  });
  // The variable: a comma list, or one rule a line when it has line breaks (a pattern may hold a comma).
  assert.deepEqual(config([], { TMUX_MCP_APPROVE: 'tool:kill_*, destructive' }).approvals?.rules, ['tool:kill_*', 'destructive']);
  assert.deepEqual(config([], { TMUX_MCP_APPROVE: 'text:a{1,2}\n tool:kill_*\n' }).approvals?.rules, ['text:a{1,2}', 'tool:kill_*']);
  assert.deepEqual(config(['--approve', 'destructive'], { TMUX_MCP_APPROVE: 'tool:x' }).approvals?.rules, ['destructive'], 'the flags win');
  assert.equal(config(['--approve', 'destructive', '--approve-timeout', '3600']).approvals?.timeoutMs, 3_600_000);
  assert.equal(config(['--approve', 'destructive'], { TMUX_MCP_APPROVE_TIMEOUT: '1' }).approvals?.timeoutMs, 1000);
  // With the view, the pause is at hand even without a rule.
  assert.deepEqual(config(['--view', '0']).approvals, { rules: [], timeoutMs: 120_000, startPaused: false });
  assert.equal(config(['--view', '0', '--start-paused']).approvals?.startPaused, true);
  assert.equal(config(['--view', '0'], { TMUX_MCP_START_PAUSED: '1' }).approvals?.startPaused, true);
});

test('approval flag mistakes are refused before start-up', () => {
  refused(['--approve'], /--approve needs a value/);
  for (const bad of ['0', '3601', '1.5', 'soon'])
    refused(['--approve', 'destructive', '--approve-timeout', bad], /--approve-timeout takes whole seconds from 1 to 3600/);
  refused(['--approve-timeout', '5'], /--approve-timeout applies to --approve and --view/);
  refused(['--start-paused'], /--start-paused pauses calls until Resume in the live view; add --view/);
  refused(['--view', '0', '--start-paused', '--start-paused'], /--start-paused is given twice/);
  refused(['--view', '0'], /TMUX_MCP_START_PAUSED must be unset, '0', or '1'/, { TMUX_MCP_START_PAUSED: 'yes' });
});

test('rules: kinds and places, and each mistake named', () => {
  const [kill, everything, text, onHost, inSessions, both] = parseRules(
    ['tool:kill_*', 'destructive', 'text:rm\\s+-rf', 'gpu:destructive', 'prod-*:tool:send_keys', 'gpu:train:text:sudo'],
    ['gpu'],
  );
  assert.deepEqual([kill!.kind, kill!.tools!.test('kill_session'), kill!.tools!.test('send_keys')], ['tool', true, false]);
  assert.equal(everything!.kind, 'destructive');
  assert.equal(text!.pattern!.exec('x; rm  -rf /')?.[0], 'rm  -rf');
  assert.deepEqual([onHost!.host, onHost!.session], ['gpu', undefined]);
  assert.deepEqual([inSessions!.host, inSessions!.session?.name, inSessions!.session?.prefix], [undefined, 'prod-', true]);
  assert.deepEqual([both!.host, both!.session?.name, both!.kind], ['gpu', 'train', 'text']);
  // A pattern holding ":" stays whole.
  assert.ok(parseRules(['text:git push .*:main'], [])[0]!.pattern!.exec('git push origin HEAD:main'));
  assert.equal(parseRules(['local:destructive'], [])[0]!.host, 'local');

  const bad = (rule: string, message: RegExp) =>
    assert.throws(
      () => parseRules([rule], ['gpu']),
      (error: unknown) => error instanceof RuleError && message.test(error.message),
      rule,
    );
  bad('', /is empty/);
  bad('kill_*', /is not tool:GLOB, destructive or text:REGEX/);
  bad('tool:', /needs something after "tool:"/);
  bad('tool:kill session', /a tool glob holds letters/);
  bad('text:(unclosed', /not a valid regular expression/);
  bad('text:x?', /matches the empty string/);
  bad('cpu:train:destructive', /names host "cpu", which is not configured/);
  bad('a,b:destructive', /one place per rule/);
  bad('bad.name:destructive', /must be a session name or a prefix ending in \*/);
});

test('rules: what a unit meets, by name, annotations and text; places', () => {
  const rules = new RuleSet(parseRules(['tool:kill_*', 'destructive', 'text:rm\\s+-rf'], []));
  assert.deepEqual(
    rules.named({ tool: 'kill_pane', destructive: true }).map((rule) => rule.text),
    ['tool:kill_*', 'destructive'],
  );
  assert.deepEqual(rules.named({ tool: 'send_keys', destructive: false }), []);
  assert.equal(
    rules.named({ tool: 'send_keys', destructive: false }),
    rules.named({ tool: 'send_keys', destructive: false }),
    'kept per name',
  );
  assert.ok(rules.readsText);
  assert.deepEqual(
    rules.matching([readTyped(typedKeys({ keys: ['rm', 'Space', '-rf'], literal: false, enter: false }))]).map((rule) => rule.text),
    ['text:rm\\s+-rf'],
  );
  assert.deepEqual(rules.matching([readTyped(typedText('echo rm -r f'))]), []);
  assert.equal(new RuleSet(parseRules(['destructive'], [])).readsText, false);

  const [placed] = parseRules(['gpu:agent-*:destructive'], ['gpu']);
  assert.equal(placeHolds(placed!, 'gpu', 'agent-1'), true);
  assert.equal(placeHolds(placed!, 'gpu', 'prod'), false);
  assert.equal(placeHolds(placed!, 'local', 'agent-1'), false);
  assert.equal(placeHolds(placed!, 'gpu', undefined), true, 'a session that cannot be told is asked about');
});

test('typed text: key names, split keys, line editing and the line earlier input left', () => {
  const keys = (list: string[], literal = false, enter = false) => readTyped(typedKeys({ keys: list, literal, enter }));
  assert.equal(keys(['r', 'm', ' -rf /', 'Enter']).sent, 'rm -rf /\n');
  assert.equal(keys(['echo', 'Space', 'a', 'Tab', 'b', 'C-m', 'KP1', 'KPEnter']).sent, 'echo a\tb\n1\n');
  // Literal: key names are words.
  assert.equal(keys(['Space', 'Enter'], true).sent, 'SpaceEnter');
  // Line editing: BSpace, Home, Left, C-u, C-k, C-w, Delete; C-c abandons the line.
  assert.equal(keys(['rmx', 'BSpace', ' -rf']).edited, 'rm -rf');
  assert.equal(keys(['m -rf', 'Home', 'r']).edited, 'rm -rf');
  assert.equal(keys(['rm -f', 'Left', 'r']).edited, 'rm -rf');
  assert.equal(keys(['rm fx', 'Left', 'Left', '-', 'r', 'Right', 'Delete']).edited, 'rm -rf');
  assert.equal(keys(['junk', 'C-u', 'rm -rf']).edited, 'rm -rf');
  assert.equal(keys(['rm -rf junk', 'C-w', 'C-w', 'x']).edited, 'rm x');
  assert.equal(keys(['xrm', 'Home', 'Delete', 'End', ' -rf']).edited, 'rm -rf');
  assert.equal(keys(['rm -rf', 'C-c', 'ls']).edited, 'ls');
  assert.equal(keys(['a', 'Enter', 'b']).unfinished, 'b');
  assert.equal(keys(['a', 'Enter']).unfinished, '');
  // Continuing the line earlier input left: the cursor at its end.
  assert.equal(readTyped(typedKeys({ keys: ['m -rf'], literal: true, enter: false }), 'echo r').edited, 'echo rm -rf');
  assert.equal(readTyped(typedKeys({ keys: ['Home', 'r'], literal: false, enter: false }), 'm -rf').edited, 'rm -rf');
  // A trailing ";" goes by value and still reads as ";".
  assert.equal(keys(['a;'], true).sent, 'a;');
  assert.deepEqual([typedCommand('rm -rf x').own, readTyped(typedCommand('rm -rf x')).sent], [true, 'rm -rf x\n']);
});

test('unfinished lines: per pane, bounded, a ref read as its pane', () => {
  const lines = new UnfinishedLines();
  lines.set('local:%1', 'echo r');
  assert.equal(lines.get('local:%1'), 'echo r');
  lines.set('local:%1', '');
  assert.equal(lines.get('local:%1'), '');
  lines.set('local:%2', 'x'.repeat(5000));
  assert.equal(lines.get('local:%2').length, 4096);
  for (let i = 0; i < 1100; i++) lines.set(`local:%${100 + i}`, 'y');
  assert.equal(lines.get('local:%2'), '', 'the oldest pane went first');
  assert.equal(lines.get('local:%1199'), 'y');
  assert.equal(paneKey({ paneId: '%3', keys: ['%9'] }), 'local:%3');
  assert.equal(paneKey({ target: { paneId: '%4', generation: 'g' } }), 'local:%4');
  assert.equal(paneKey({ pane_id: 'gpu:%5' }), 'gpu:%5');
  assert.equal(paneKey({ keys: ['x'] }), '?');
});

test('board: an answer settles its question once; Resume lets the held calls go in the order they came', () => {
  const board = new ApprovalBoard(true);
  const events: string[] = [];
  board.subscribe((event) => events.push(event.kind === 'paused' ? `paused ${event.paused}` : `questions ${event.questions.length}`));
  const settled: Array<[string, Answer]> = [];
  const ask = (id: string, paused: boolean): PendingQuestion => ({
    id,
    tool: 'send_keys',
    where: [],
    arguments: {},
    paused,
    client: {},
    askedAt: '',
    deadline: 0,
  });
  const withdraw = new Map<string, () => void>();
  for (const [id, paused] of [
    ['a', true],
    ['rule', false],
    ['b', true],
  ] as const) {
    withdraw.set(
      id,
      board.post(ask(id, paused), (answer) => {
        settled.push([id, answer]);
        withdraw.get(id)!();
      }),
    );
  }
  assert.equal(board.answer('rule', 'deny', `  ${'why '.repeat(200)}`), true);
  assert.ok(settled[0]![1].reason!.length <= 500, 'a reason is bounded');
  assert.equal(board.answer('rule', 'approve'), false, 'answered already');
  board.setPaused(false);
  assert.deepEqual(
    settled.map(([id, answer]) => `${id} ${answer.decision} ${answer.reason ?? ''}`.trim()),
    [`rule deny ${settled[0]![1].reason}`, 'a approve resumed', 'b approve resumed'],
  );
  assert.deepEqual(board.list(), []);
  assert.deepEqual(events, ['questions 1', 'questions 2', 'questions 3', 'questions 2', 'paused false', 'questions 1', 'questions 0']);
});
