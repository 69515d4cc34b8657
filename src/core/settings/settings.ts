/**
 * Server-wide defaults this server may change: the global session options `history-limit` and
 * `mouse`. Each setter reads the value back, so what it reports is what tmux now holds.
 */
import type { Engine } from '../engine.js';

/** Largest scrollback a caller may ask for; tmux allows more, but each line costs memory per pane. */
export const MAX_HISTORY_LIMIT = 2_000_000;

async function setGlobal(engine: Engine, option: string, value: string): Promise<string> {
  // set-option may start a tmux server of its own; with none running there is nothing to configure.
  await engine.requireIdentity();
  await engine.run(['set-option', '-g', option, value]);
  const [now] = await engine.run(['show-options', '-gv', option]);
  return now ?? '';
}

/** Sets the global `history-limit` (lines of scrollback kept by panes created from now on). */
export async function setHistoryLimit(engine: Engine, lines: number): Promise<number> {
  return Number.parseInt(await setGlobal(engine, 'history-limit', String(lines)), 10);
}

/** Turns the global `mouse` option on or off and returns its new state. */
export async function setMouse(engine: Engine, enabled: boolean): Promise<boolean> {
  return (await setGlobal(engine, 'mouse', enabled ? 'on' : 'off')) === 'on';
}
