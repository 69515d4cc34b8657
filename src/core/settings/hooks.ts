/** Reading the hooks tmux has set: global ones (split by tmux between session and window tables) or one session's. */
import type { Engine } from '../engine.js';

export interface HookEntry {
  /** Hook name, e.g. `after-new-window` or `pane-died`. */
  readonly name: string;
  /** Position in the hook's command array (`set-hook -a` appends). */
  readonly index: number;
  /** The command tmux runs, as tmux prints it. */
  readonly command: string;
}

/** `name[index] command`; a hook listed without an index has nothing set and is left out. */
const HOOK_ROW = /^([A-Za-z0-9_-]+)\[(\d+)\] (.*)$/;

export async function showHooks(engine: Engine, sessionId?: string): Promise<HookEntry[]> {
  return showHooksAt(engine, sessionId === undefined ? { kind: 'global' } : { kind: 'session', id: sessionId });
}

/** Where hooks are read: the global tables, or the hooks set on one session, window or pane (resolved ids). */
export type HookScope = { readonly kind: 'global' } | { readonly kind: 'session' | 'window' | 'pane'; readonly id: string };

export async function showHooksAt(engine: Engine, scope: HookScope): Promise<HookEntry[]> {
  const commands =
    scope.kind === 'global'
      ? [
          ['show-hooks', '-g'],
          ['show-hooks', '-gw'],
        ]
      : [['show-hooks', ...(scope.kind === 'window' ? ['-w'] : scope.kind === 'pane' ? ['-p'] : []), '-t', scope.id]];
  const listings = await Promise.all(commands.map((command) => engine.runIfServer(command)));
  const hooks: HookEntry[] = [];
  for (const line of listings.flatMap((listing) => listing ?? [])) {
    const match = HOOK_ROW.exec(line);
    if (match) hooks.push({ name: match[1]!, index: Number(match[2]), command: match[3]! });
  }
  return hooks;
}
