/** The everyday calls over stdio: ours, the no-op SDK server and the peers' ways, call for call. */
import { BEFORE } from '../before.js';
import { servers, type Base } from '../base.js';
import { callTurn, interleave, type Turn } from '../measure.js';
import { opts } from '../options.js';
import { beforeSource, check, sampled, table } from '../report.js';
import { ms, summarize } from '../stats.js';

/** Each everyday call, as each server names it (a peer without the tool: none). */
function everydayCalls(base: Base) {
  const [screen] = base.others;
  return [
    { name: 'list_sessions', ours: ['list_sessions', {}], nickgnd: ['list-sessions', {}], python: ['list_sessions', {}] },
    { name: 'list_panes (8 panes)', ours: ['list_panes', {}], nickgnd: ['list-panes', {}], python: ['list_panes', {}] },
    { name: 'get_pane_info', ours: ['get_pane_info', { paneId: base.shell }], python: ['get_pane_info', { pane_id: base.shell }] },
    {
      name: 'capture_pane (visible screen)',
      ours: ['capture_pane', { paneId: screen }],
      nickgnd: ['capture-pane', { paneId: screen }],
      python: ['capture_pane', { pane_id: screen }],
    },
    {
      name: 'send_keys (one key + Enter)',
      ours: ['send_keys', { paneId: base.sink, keys: ['x'], literal: true, enter: true }],
      nickgnd: ['execute-command', { paneId: base.sink, command: 'x', rawMode: true }],
      python: ['send_keys', { pane_id: base.sink, keys: 'x', literal: true }],
    },
  ] as Array<{ name: string } & Partial<Record<'ours' | 'nickgnd' | 'python', [string, Record<string, unknown>]>>>;
}

/** How each side is named in the table. */
const NAMES = {
  ours: 'ours',
  before: 'ours before the change',
  nickgnd: "nickgnd/tmux-mcp's way",
  python: "Python libtmux-mcp's way",
} as const;

export async function callsScenario(base: Base): Promise<void> {
  const { sizes } = opts;
  const row = table(
    'Everyday calls over stdio',
    `Each call through the official SDK client, timed from the request written to the result parsed. The servers are called in turn, ` +
      `round after round (${sizes.rounds} rounds at most, ${sizes.budgetMs / 1000} s), after ${sizes.warmup} warm-up calls of ours and of the ` +
      `no-op SDK server and ${sizes.peerWarmup} of each stand-in. "before": the same call before the simplification, ${beforeSource()}.`,
  );
  const all = await servers(base, ['noop', 'ours', 'before', 'nickgnd', 'python']);
  try {
    for (const call of everydayCalls(base)) {
      const sides = (['ours', 'before', 'nickgnd', 'python'] as const).filter(
        (side) => all[side] && call[side === 'before' ? 'ours' : side],
      );
      const turns: Turn[] = [
        callTurn(all.noop, 'noop', {}, sizes.warmup),
        ...sides.map((side) => {
          const [tool, args] = call[side === 'before' ? 'ours' : side]!;
          return callTurn(all[side]!, tool, args, side === 'ours' || side === 'before' ? sizes.warmup : sizes.peerWarmup);
        }),
      ];
      const [noop, ...measured] = await interleave(turns, sizes.rounds);
      const p50 = new Map(sides.map((side, i) => [side, summarize(measured[i]!).p50]));
      const floor = summarize(noop!).p50;
      // Measured beside ours in this run when a build was given, else the figure recorded on December 5.
      const before = p50.get('before') ?? BEFORE.calls[call.name]!;
      const beforeNoop = p50.has('before') ? floor : BEFORE.callsNoop[call.name]!;
      row(sampled(`${call.name}: no-op SDK server`, noop!, p50.has('before') ? {} : { before: beforeNoop }));
      // Beyond the no-op server beside it: steadier than the wall time when the machine's load moves.
      const beyond = (ours: number, noop: number) => `${ours >= noop ? '+' : ''}${ms(ours - noop)}`;
      sides.forEach((side, i) => {
        const name = `${call.name}: ${NAMES[side]}`;
        if (side === 'ours') {
          const note = `over the no-op server: ${beyond(p50.get('ours')!, floor)} ms (before: ${beyond(before, beforeNoop)})`;
          row(sampled(name, measured[i]!, { before, note }));
        } else row(sampled(name, measured[i]!, side === 'before' ? {} : { note: `its ${call[side]![0]}` }));
      });
      const ours = p50.get('ours')!;
      check(`${call.name}: ours, per call`, `before (${ms(before)}) + 0.5 ms`, ours, before + 0.5);
      if (p50.has('nickgnd'))
        check(`${call.name}: ours ahead of nickgnd/tmux-mcp's way`, "below that way's p50", ours, p50.get('nickgnd')!, 'ms', true);
    }
  } finally {
    await all.close();
  }
}
