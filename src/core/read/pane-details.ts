/**
 * Panes with their geometry in the window (left/top/right/bottom cells) and their tty: what
 * position-aware listings need beyond a PaneRecord, read in the same single command.
 */
import { toInt } from '../../tmux/formats.js';
import type { Engine } from '../engine.js';
import { notFound } from '../failure.js';
import { PANE_LAYOUT_FIELDS, paneRowFormat, toPaneLayout, type Incarnation, type PaneLayout, type Writable } from './records.js';
import { listPaneRows } from './listings.js';
import { onPane } from '../targets/resolve.js';

export interface PaneDetail extends PaneLayout {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly tty: string;
}

// The right and bottom edges are not asked for: tmux computes them as left + width - 1 and
// top + height - 1 (format_cb_pane_right/bottom), and so does toDetail, from fields every row has.
const DETAIL_FIELDS = { left: 'pane_left', top: 'pane_top', tty: 'pane_tty' } as const;
const DETAIL_FORMAT = paneRowFormat(DETAIL_FIELDS, PANE_LAYOUT_FIELDS);

function toDetail(row: Record<string, string>, incarnation: Incarnation): PaneDetail {
  // Added to the record rather than spread into a copy: a listing makes one object per pane, not two.
  const detail = toPaneLayout(row, incarnation) as Writable<PaneDetail>;
  detail.left = toInt(row.left!);
  detail.top = toInt(row.top!);
  detail.right = detail.left + detail.width - 1;
  detail.bottom = detail.top + detail.height - 1;
  detail.tty = row.tty!;
  return detail;
}

/** Panes of the server, a session or a window (each pane once), in tmux's order; none when no server runs. */
export async function listPaneDetails(engine: Engine, scope: { sessionId?: string; windowId?: string } = {}): Promise<PaneDetail[]> {
  const target = scope.windowId ?? scope.sessionId;
  const run = () => listPaneRows(engine, scope, DETAIL_FORMAT);
  const read = target === undefined ? await run() : await onPane(engine, target, run);
  return read ? read.rows.map((row) => toDetail(row, read.incarnation)) : [];
}

/** One pane (an id like %3) with its geometry; a missing pane is a not-found failure. */
export async function paneDetail(engine: Engine, paneId: string): Promise<PaneDetail> {
  const identity = await engine.requireIdentity();
  const lines = await onPane(engine, paneId, () => engine.run(['display-message', '-p', '-t', paneId, DETAIL_FORMAT.format]));
  const row = DETAIL_FORMAT.parse(lines)[0];
  if (!row || row.id !== paneId) throw notFound(`no pane ${paneId} on this tmux server`, 'Call list_panes to see what exists now.');
  return toDetail(row, identity);
}
