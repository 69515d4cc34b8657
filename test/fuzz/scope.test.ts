/**
 * The scope under fuzz: every profile runs with `--allow-session alpha*,bravo*` against
 * the fuzz world (world.ts), whose session `victim` is outside and shows a secret on its screen.
 * Tools and arguments are generated from each tool's schema (arguments.ts), with targets drawn from
 * every session, victim's included, and strings that try tmux's own languages (hook and server
 * option names, format loops, client variables). After every call, victim's screen, options,
 * hooks, environment, windows and attached state (and the server's options and global hooks and
 * environment) must be as they were, and no answer may name victim, its ids or its secret unless
 * the call itself did; no call may hang or run a payload.
 *
 * SCOPE_FUZZ_RUNS (calls per profile, default 60) and FUZZ_SEED (default 12) set the run.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { startMcp } from '../fixture/mcp.js';
import { argumentsFor } from './arguments.js';
import { FuzzWorld, injectionPayloads } from './world.js';

const SEED = Number(process.env.FUZZ_SEED ?? 12);
const RUNS = Number(process.env.SCOPE_FUZZ_RUNS ?? 60);
const DEADLINE_MS = 60_000;
const SECRET = 'VICTIM-SECRET-7';
const OUTSIDE = /outside this server's scope|is limited to --allow-session/;

/** Strings aimed at tmux's languages: what the gate cannot see in a command's targets. */
const SCOPE_PAYLOADS = [
  'after-send-keys',
  'after-send',
  'pane-died',
  'command-alias[90]',
  'exit-unattached',
  'exit-un',
  'message-limit',
  'default-command',
  'send-keys -t victim: X Enter',
  'list-sessions=kill-session -t victim',
  '#{S:#{session_name},}',
  '#{S:#{W:#{P:#{C:VICTIM}}}}',
  '#{P:#{C/r:VICTIM-\\w+}}',
  '#{N/s:victim}',
  '#{client_session}',
  '#{L:#{client_session}}',
  '#{E:pane_title}',
  '#{T:pane_title}',
  'victim',
  'victim:',
  '=victim',
  'vic',
];

/** The tools that speak tmux's languages: drawn six times as often, their language fields often set to a payload above. */
const LANGUAGE_TOOLS = new Set([
  'set_option',
  'display_message',
  'get_tmux_variables',
  'show_option',
  'show_hooks',
  'show_hook',
  'show_environment',
  'set_environment',
]);
const LANGUAGE_FIELDS = ['option', 'format_string', 'value', 'name', 'hook_name'];

/** `args` with its language fields (those it has) set to `payload`; get_tmux_variables' names to client variables. */
function aimed(args: unknown, payload: string): unknown {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return args;
  const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const field of LANGUAGE_FIELDS) if (typeof out[field] === 'string') out[field] = payload;
  if (Array.isArray(out['names'])) out['names'] = ['client_session', 'session_name'];
  return out;
}

/** Everything of victim (and of the server as a whole) a call under the scope must leave as it was: one tmux, one list. */
async function victimState(world: FuzzWorld): Promise<string> {
  const reads = [
    ['list-windows', '-t', 'victim', '-F', '#{window_id} #{window_name} #{window_layout} #{session_attached}'],
    ['capture-pane', '-p', '-t', 'victim:'],
    ['show-options', '-t', 'victim'],
    ['show-options', '-w', '-t', 'victim:'],
    ['show-hooks', '-t', 'victim'],
    ['show-hooks', '-g'],
    ['show-hooks', '-gw'],
    ['show-environment', '-t', 'victim'],
    ['show-environment', '-g'],
    ['show-options', '-s'],
    ['show-options', '-g'],
    ['show-options', '-gw'],
  ];
  return world.tmux
    .tmux(...reads.flatMap((read, i) => (i === 0 ? read : [';', ...read])))
    .catch((error: Error) => `error: ${error.message}`);
}

/**
 * victim's name, ids and secret, each as a pattern that does not match inside a longer id or word,
 * and what a call names victim by: those, and the refs of its ids (a ref is its id, encoded).
 */
async function victimTokens(world: FuzzWorld): Promise<{ tokens: Array<{ text: string; pattern: RegExp }>; names: string[] }> {
  const rows = (await world.tmux.tmux('list-panes', '-s', '-t', 'victim', '-F', '#{session_id} #{window_id} #{pane_id}'))
    .trim()
    .split('\n');
  const ids = [...new Set(rows.flatMap((row) => row.split(' ')))];
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const tokens = [...ids, 'victim', SECRET].map((text) => ({ text, pattern: new RegExp(`(?<![\\w$@%-])${literal(text)}(?![\\w-])`) }));
  const session = [...(await world.snapshot()).values()].find((state) => state.id === ids[0]);
  return { tokens, names: [...ids, 'victim', ...(session?.names ?? [])] };
}

for (const profile of ['libtmux', 'python', 'julia']) {
  test(`scope fuzz ${profile}: ${RUNS} generated calls under --allow-session alpha*,bravo* (seed ${SEED})`, {
    timeout: 300_000,
  }, async (t) => {
    const world = new FuzzWorld();
    t.after(() => world.dispose());
    await world.start();
    await world.tmux.tmux('send-keys', '-t', 'victim:', '-l', SECRET);
    await world.tmux.tmux('send-keys', '-t', 'victim:', 'Enter');
    const mcp = await startMcp(t, {
      env: {
        ...world.env,
        LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown',
        LIBTMUX_MCP_WAIT_MAX_SECONDS: '2',
        LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS: '10',
      },
      args: [
        '--profile',
        profile,
        '--allow-session',
        'alpha*,bravo*',
        ...(profile === 'julia'
          ? [
              '--tool',
              'list_panes',
              '--tool',
              'capture_pane',
              '--tool',
              'send_keys',
              '--tool',
              'create_session',
              '--tool',
              'run_operations',
            ]
          : []),
      ],
    });
    const { tools } = await mcp.client.listTools();
    const payloads = [...injectionPayloads(world.canary), ...SCOPE_PAYLOADS];
    const tally = { calls: 0, succeeded: 0, refusedOutside: 0, otherErrors: 0, failures: [] as string[] };
    const started = performance.now();
    for (let batch = 0; tally.calls < RUNS && batch < RUNS; batch++) {
      const { tokens, names } = await victimTokens(world);
      // Targets: mostly victim's (ids, refs, name), some of the sessions in scope.
      const all = await world.pools(payloads);
      const victims = new Set(names);
      const atVictim = (list: readonly string[]) => [
        ...list.filter((name) => victims.has(name) || name.startsWith('tmux1_')),
        ...list.filter((name) => !victims.has(name)).slice(0, 2),
      ];
      const pools = { ...all, panes: atVictim(all.panes), windows: atVictim(all.windows), sessions: [...atVictim(all.sessions), 'victim'] };
      const tool = fc.oneof(...tools.map((each) => ({ weight: LANGUAGE_TOOLS.has(each.name) ? 6 : 1, arbitrary: fc.constant(each) })));
      const generated = tool.chain((each) =>
        fc
          .tuple(argumentsFor(each.inputSchema, pools), fc.constantFrom(...SCOPE_PAYLOADS), fc.boolean())
          .map(([args, payload, aim]) => ({ tool: each.name, args: aim ? aimed(args, payload) : args })),
      );
      // Calls well-formed but for their language: a payload where tmux reads a name, a value or a format, on a target in scope.
      const inScope = all.triples?.find(([session]) => !victims.has(session)) ?? ['alpha', '@0', '%0'];
      const payload = fc.constantFrom(...SCOPE_PAYLOADS);
      const listed = new Set(tools.map((each) => each.name));
      const candidates: Array<fc.Arbitrary<{ tool: string; args: unknown }>> = [
        fc
          .record({
            option: payload,
            value: payload,
            scope: fc.constantFrom('session', 'window', 'pane'),
            target: fc.constantFrom(...inScope),
          })
          .map((args) => ({
            tool: 'set_option',
            args: { ...args, target: args.scope === 'session' ? inScope[0] : args.scope === 'window' ? inScope[1] : inScope[2] },
          })),
        fc.record({ format_string: payload, pane_id: fc.constant(inScope[2]) }).map((args) => ({ tool: 'display_message', args })),
        fc
          .constantFrom('client_session', 'client_last_session', 'client_name')
          .map((name) => ({ tool: 'get_tmux_variables', args: { names: [name], paneId: inScope[2] } })),
      ];
      const directed = candidates.filter((arbitrary) => listed.has(fc.sample(arbitrary, 1)[0]!.tool));
      const call = directed.length
        ? fc.oneof({ weight: 3, arbitrary: generated }, { weight: 1, arbitrary: fc.oneof(...directed) })
        : generated;
      for (const { tool, args } of fc.sample(call, { seed: SEED + 1000 + batch, numRuns: Math.min(20, RUNS - tally.calls) })) {
        const sent = JSON.stringify(args) ?? '';
        // A 1 MiB string says nothing about the scope (the main fuzz sends them); the next set is taken.
        if (sent.length > 1024 * 1024) continue;
        tally.calls++;
        const before = await victimState(world);
        let answer: string;
        try {
          const result = await Promise.race([
            mcp.call(tool, args as Record<string, unknown>),
            new Promise<never>((_, reject) =>
              setTimeout(() => reject(new Error(`HANG: no answer within ${DEADLINE_MS} ms`)), DEADLINE_MS).unref(),
            ),
          ]);
          answer = JSON.stringify(result);
          if (!result.isError) tally.succeeded++;
          else if (OUTSIDE.test(answer)) tally.refusedOutside++;
          else tally.otherErrors++;
        } catch (error) {
          answer = (error as Error).message;
          if (/HANG|violates its output schema/.test(answer)) tally.failures.push(`${answer}: ${tool} ${sent.slice(0, 300)}`);
          else if (OUTSIDE.test(answer)) tally.refusedOutside++;
          else tally.otherErrors++;
        }
        const what = `${tool} ${sent.slice(0, 300)}`;
        if (world.canaryExists()) tally.failures.push(`PAYLOAD EXECUTED: ${what}`);
        const namesVictim = names.some((name) => sent.includes(name));
        for (const token of tokens)
          if (token.pattern.test(answer) && !(token.text === SECRET ? sent.includes(SECRET) : namesVictim))
            tally.failures.push(`the answer names ${token.text}: ${what}\n  ${answer.slice(0, 400)}`);
        const after = await victimState(world);
        if (after !== before)
          tally.failures.push(`victim changed: ${what}\n  before ${before.slice(0, 600)}\n  after  ${after.slice(0, 600)}`);
        await world.repair();
      }
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    t.diagnostic(
      `SCOPE-FUZZ profile=${profile} seed=${SEED} calls=${tally.calls} succeeded=${tally.succeeded} refused-outside=${tally.refusedOutside} other-errors=${tally.otherErrors} seconds=${seconds} failures=${tally.failures.length}`,
    );
    assert.deepEqual(tally.failures, []);
    // julia's targets carry a generation, which generated ones rarely match: they are refused as stale first.
    if (profile !== 'julia') assert.ok(tally.refusedOutside > 0, 'calls aimed outside were made, and refused');
  });
}
