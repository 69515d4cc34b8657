/**
 * Where windows sit: a window can be linked into several sessions (and twice into one), so
 * selecting or moving "a window" means one of its placements, a session:index pair. These
 * functions pick exactly one placement or say which ones there are, then act on it.
 */
import { invalidArgument, notFound, refused } from '../failure.js';
import type { Engine } from '../engine.js';
import type { SessionRecord, WindowRecord } from '../read/records.js';
import { decodeRef } from './refs.js';
import { listWindows } from '../read/listings.js';
import { getSession, resolveSession, resolveWindow } from './resolve.js';

interface PlacementFilter {
  /** Only placements in this session (already resolved). */
  readonly sessionId?: string;
  /** Only the placement at this window index. */
  readonly index?: number;
}

/** `$1:2`, the tmux target of one placement. */
export const placementTarget = (link: { sessionId: string; index: number }): string => `${link.sessionId}:${link.index}`;

/**
 * Resolves a window (id, window ref or window-link ref) to one placement. A link ref already names
 * its session; `sourceSession` and `sourceIndex` narrow further when the window is linked twice.
 */
export async function resolvePlacement(
  engine: Engine,
  input: string,
  narrow: { readonly sourceSession?: string; readonly sourceIndex?: number },
  field = 'windowId',
): Promise<WindowRecord> {
  const window = await resolveWindow(engine, input, field);
  const pinned = decodeRef(input)?.kind === 'link' ? window.sessionId : undefined;
  const session = narrow.sourceSession !== undefined ? await resolveSession(engine, narrow.sourceSession, 'sourceSession') : undefined;
  if (pinned !== undefined && session !== undefined && pinned !== session.id) {
    throw invalidArgument(`${field} is a window-link ref into session ${pinned}, but sourceSession is ${session.id}`);
  }
  return findPlacement(engine, window.id, { sessionId: pinned ?? session?.id, index: narrow.sourceIndex });
}

/** The one placement of `windowId` that matches `filter`; fails when none or several do. */
async function findPlacement(engine: Engine, windowId: string, filter: PlacementFilter): Promise<WindowRecord> {
  const all = (await listWindows(engine)).filter((link) => link.id === windowId);
  const matching = all.filter(
    (link) =>
      (filter.sessionId === undefined || link.sessionId === filter.sessionId) &&
      (filter.index === undefined || link.index === filter.index),
  );
  const where = all.map((link) => `${placementTarget(link)} (${link.sessionName})`).join(', ');
  if (matching.length === 0) {
    const session = filter.sessionId !== undefined ? `session ${filter.sessionId}` : 'any session';
    const wanted = filter.index !== undefined ? `at index ${filter.index} of ${session}` : `in ${session}`;
    throw notFound(`window ${windowId} is not ${wanted}`, all.length ? `It is at ${where}` : 'Call list_windows to see what exists now');
  }
  if (matching.length > 1) {
    throw refused(
      `window ${windowId} is linked in ${matching.length} places (${matching.map(placementTarget).join(', ')}); say which one`,
      'Pass sourceSession, and sourceIndex when it appears twice in one session',
    );
  }
  return matching[0]!;
}

/** Makes the placement the current window of its session; returns it as it is now. */
export async function selectPlacement(engine: Engine, link: WindowRecord): Promise<WindowRecord> {
  await engine.run(['select-window', '-t', placementTarget(link)]);
  const now = (await listWindows(engine, link.sessionId)).find((w) => w.index === link.index && w.id === link.id);
  if (!now?.isActive) throw refused(`tmux did not select window ${link.id} at ${placementTarget(link)}`);
  return now;
}

/**
 * Moves one placement to `destination` at `index` (the first free index when omitted), without
 * changing which window is current anywhere. Refuses a taken index, and a move that would leave
 * the source session without windows (tmux would end that session).
 */
export async function movePlacement(engine: Engine, link: WindowRecord, destination: SessionRecord, index?: number): Promise<WindowRecord> {
  const sameSession = destination.id === link.sessionId;
  if (sameSession && index === link.index) return link;
  const before = await listWindows(engine, destination.id);
  if (index !== undefined) {
    const taken = before.find((w) => w.index === index);
    if (taken) {
      throw invalidArgument(
        `index ${index} of session ${destination.id} (${destination.name}) is taken by window ${taken.id} (${taken.name})`,
        'Pick a free index, or omit index for the first free one',
      );
    }
  }
  if (!sameSession) {
    const source = await getSession(engine, link.sessionId);
    if (source.windowCount <= 1) {
      throw refused(
        `moving window ${link.id} would leave session ${source.id} (${source.name}) with no windows, and tmux would end that session`,
        'Create another window in it first (create_window), or end it on purpose with kill_session',
      );
    }
  }
  await engine.run(['move-window', '-d', '-s', placementTarget(link), '-t', `${destination.id}:${index ?? ''}`]);
  const after = (await listWindows(engine, destination.id)).filter((w) => w.id === link.id);
  const earlier = new Set(before.filter((w) => w.id === link.id).map((w) => w.index));
  const moved =
    (index !== undefined ? after.find((w) => w.index === index) : undefined) ?? after.find((w) => !earlier.has(w.index)) ?? after[0];
  if (!moved)
    throw notFound(`window ${link.id} is not in session ${destination.id} after the move`, 'Call list_windows to see where it is');
  return moved;
}
