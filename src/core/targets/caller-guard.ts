/**
 * The caller guard: when this server runs inside tmux, typing into, respawning or killing its own
 * pane, or killing the window or session holding it, is refused unless the call passes `force`.
 */
import type { Engine } from '../engine.js';
import { refused } from '../failure.js';
import { listPanes } from '../read/listings.js';

/** True when `paneId` is the pane this server runs in, on this very tmux server. */
export async function isCallerPane(engine: Engine, paneId: string): Promise<boolean> {
  const caller = engine.scope.caller;
  if (!caller || caller.paneId !== paneId || engine.tmux.host !== undefined) return false;
  if (caller.serverPid === undefined) return true; // unsure which server: err on the safe side
  const identity = await engine.identity();
  return identity !== undefined && engine.scope.isCaller(engine.tmux.host, paneId, identity.pid);
}

/** Refuses to act on the caller's own pane unless `force`. */
export async function guardCaller(engine: Engine, paneIds: readonly string[], action: string, force: boolean | undefined): Promise<void> {
  if (force) return;
  for (const paneId of paneIds) {
    if (await isCallerPane(engine, paneId)) {
      throw refused(
        `refusing to ${action}: ${paneId} is the pane this MCP server runs in`,
        'Pick another pane (list_panes marks this one is_caller), or do it in tmux yourself; where the tool takes force, force: true allows it.',
      );
    }
  }
}
/** Refuses to act on a window or session holding the caller's pane unless `force`; lists its panes only when that can matter. */
export async function guardCallerWithin(
  engine: Engine,
  scope: { windowId: string } | { sessionId: string },
  action: string,
  force: boolean | undefined,
): Promise<void> {
  if (force || !engine.scope.caller) return;
  const panes = await listPanes(engine, scope);
  await guardCaller(
    engine,
    panes.map((p) => p.id),
    action,
    force,
  );
}
