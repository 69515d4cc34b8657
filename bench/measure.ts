/** Timed turns: several servers doing the same thing, called in turn, round after round. */
import { performance } from 'node:perf_hooks';
import type { McpDriver } from './mcp.js';
import { opts } from './options.js';

/** One side of a comparison: what it does once, and how many times it does it unmeasured first. */
export interface Turn {
  /** One timed action (a call, or a call and its polls): its milliseconds; throws when it failed. */
  readonly once: () => Promise<number>;
  readonly warmup: number;
}

/** A turn of one tools/call that must succeed, timed by the client. */
export function callTurn(driver: McpDriver, tool: string, args: Record<string, unknown>, warmup: number): Turn {
  return { once: async () => (await driver.ok(tool, args)).ms, warmup };
}

/**
 * Each turn warmed alone, then every turn once a round, `rounds` rounds or until the time budget
 * (at least 20 rounds): the sides alternate call for call, so all see the same machine (the load
 * of a shared machine moves between seconds). Each round starts one turn further on.
 */
export async function interleave(turns: readonly Turn[], rounds: number): Promise<number[][]> {
  for (const turn of turns) for (let i = 0; i < turn.warmup; i++) await turn.once();
  const samples = turns.map((): number[] => []);
  const end = performance.now() + opts.sizes.budgetMs;
  for (let round = 0; round < rounds && (round < 20 || performance.now() < end); round++) {
    for (let k = 0; k < turns.length; k++) {
      const i = (round + k) % turns.length;
      samples[i]!.push(await turns[i]!.once());
    }
  }
  return samples;
}

export const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));
