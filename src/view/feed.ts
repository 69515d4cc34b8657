/**
 * One open page's feed (server-sent events): the panes in view, each one's screen when it comes
 * into view and then its output as tmux sends it, and the audit trail. Pane output comes from the
 * session's shared output client, the one waits and recordings listen to (one per session for
 * everything that follows its panes), so a page adds no tmux client and keeps no copy of the text;
 * the watches and the audit subscription are held only while the page is open.
 */
import type { ServerResponse } from 'node:http';
import {
  type Engine,
  type EngineRegistry,
  listPanes,
  listWindows,
  LOCAL_HOST,
  PAINT_FORMAT,
  paintCommands,
  paintScreen,
  type PaneRecord,
} from '../core/index.js';
import type { ViewPane } from './wire.js';
import type { AuditTrail } from '../mcp/tools/audit.js';
import type { ApprovalBoard } from '../mcp/approvals/board.js';

/** Most panes one page shows live; the rest are listed as left out. */
export const MAX_VIEW_PANES = 24;
/** Notifications after which the pane list may have changed (tmux names them so): it is read again. */
const STRUCTURAL = new Set([
  'layout-change',
  'window-add',
  'window-close',
  'unlinked-window-close',
  'sessions-changed',
  'session-window-changed',
  'window-pane-changed',
]);
/** How often the page's pane list is read again (new panes, resizes, panes gone) while the page is open. */
const REFRESH_MS = 1500;
/** Output is gathered this long before it is sent: one event per pane per tick, not per tmux chunk. */
const FLUSH_MS = 16;
/** Unsent bytes past this: the page is too slow, its output is dropped and its panes redrawn once it catches up. */
const MAX_BUFFERED = 8 * 1024 * 1024;

export interface FeedOptions {
  readonly registry: EngineRegistry;
  readonly trail: AuditTrail;
  /** The calls waiting for a person and the pause, shown and answered on the page. */
  readonly approvals?: ApprovalBoard;
}

interface Watched {
  pane: ViewPane;
  readonly engine: Engine;
  readonly record: PaneRecord;
  /** Ends the watch on the session's output client; undefined until the watch is up. */
  stop?: () => void;
  /** Off while the screen is read: output before tmux's answer is in that screen, output after it follows it. */
  live: boolean;
  /** Bumped on every (re)draw, so a slow one that a newer one overtook is not sent. */
  generation: number;
}

export class PaneFeed {
  readonly #res: ServerResponse;
  readonly #options: FeedOptions;
  readonly #watched = new Map<string, Watched>();
  readonly #pending = new Map<string, string>();
  #flushTimer: NodeJS.Timeout | undefined;
  #refreshTimer: NodeJS.Timeout | undefined;
  #refreshing = false;
  #listing = '';
  #behind = false;
  #closed = false;
  #stopAudit: (() => void) | undefined;
  #stopApprovals: (() => void) | undefined;

  constructor(res: ServerResponse, options: FeedOptions) {
    this.#res = res;
    this.#options = options;
  }

  start(): void {
    this.#res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    this.#res.on('drain', () => this.#caughtUp());
    this.#send('hello', { readOnly: true, maxPanes: MAX_VIEW_PANES });
    for (const entry of this.#options.trail.recent()) this.#send('audit', entry);
    this.#stopAudit = this.#options.trail.subscribe((entry) => this.#send('audit', entry));
    const board = this.#options.approvals;
    if (board) {
      this.#send('approvals', { paused: board.paused, questions: board.list() });
      this.#stopApprovals = board.subscribe((event) => this.#send(event.kind, event));
    }
    void this.#refresh();
    this.#refreshTimer = setInterval(() => void this.#refresh(), REFRESH_MS);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#refreshTimer);
    clearTimeout(this.#flushTimer);
    this.#stopAudit?.();
    this.#stopApprovals?.();
    for (const watched of this.#watched.values()) this.#unwatch(watched);
    this.#watched.clear();
    this.#pending.clear();
    this.#res.end();
  }

  /** Reads the panes again: new ones come into view, gone ones leave, a resized one is redrawn. */
  async #refresh(): Promise<void> {
    if (this.#refreshing || this.#closed) return;
    this.#refreshing = true;
    try {
      const answers = await this.#options.registry.everyServer((engine, host) => listView(engine, host));
      if (this.#closed) return;
      const all = answers.flatMap((answer) => (answer.ok ? answer.value : []));
      const shown = all.slice(0, MAX_VIEW_PANES);
      const listing = JSON.stringify(shown.map((each) => each.pane));
      if (listing !== this.#listing) {
        this.#listing = listing;
        this.#send('panes', { panes: shown.map((each) => each.pane), omitted: all.length - shown.length });
      }
      const keep = new Set(shown.map((each) => each.pane.key));
      for (const [key, watched] of this.#watched) {
        if (keep.has(key)) continue;
        this.#unwatch(watched);
        this.#watched.delete(key);
      }
      for (const each of shown) {
        let watched = this.#watched.get(each.pane.key);
        // Moved to another session: its output now goes to that session's output client.
        if (watched && watched.record.sessionId !== each.record.sessionId) {
          this.#forget(watched);
          watched = undefined;
        }
        if (!watched) {
          const fresh: Watched = { pane: each.pane, engine: each.engine, record: each.record, live: false, generation: 0 };
          this.#watched.set(each.pane.key, fresh);
          void this.#watch(fresh);
        } else if (watched.pane.width !== each.pane.width || watched.pane.height !== each.pane.height) {
          watched.pane = each.pane;
          void this.#draw(watched);
        }
      }
    } catch {
      // A listing that failed now is tried again at the next tick.
    } finally {
      this.#refreshing = false;
    }
  }

  async #watch(watched: Watched): Promise<void> {
    try {
      const stop = await watched.engine.watchPane(watched.record.sessionId, watched.pane.id, {
        output: (raw, _ageMs, skipped) => {
          // tmux dropped output the watch had not taken: the page's copy is wrong until redrawn.
          if (skipped) void this.#draw(watched);
          else if (watched.live) this.#queue(watched.pane.key, raw);
        },
        notification: (name) => {
          if (STRUCTURAL.has(name)) void this.#refresh();
        },
        // The client ended (the session is gone, tmux detached it): the next listing watches the pane afresh if it is still there.
        close: () => this.#forget(watched),
      });
      if (this.#closed || this.#watched.get(watched.pane.key) !== watched) return stop();
      watched.stop = stop;
      await this.#draw(watched);
    } catch {
      // Could not watch it now (gone meanwhile, tmux busy): the next listing tries again if it is still there.
      this.#forget(watched);
    }
  }

  #forget(watched: Watched): void {
    this.#unwatch(watched);
    if (this.#watched.get(watched.pane.key) === watched) this.#watched.delete(watched.pane.key);
  }

  /**
   * Sends the pane's screen as tmux has it now, then its output from exactly there: the screen is
   * read over the client that carries the pane's output, and tmux answers in order with that
   * output, so the answer is handled before any output that came after it (core/screen-paint.ts).
   */
  async #draw(watched: Watched): Promise<void> {
    const generation = ++watched.generation;
    watched.live = false;
    this.#pending.delete(watched.pane.key);
    const { key, id } = watched.pane;
    try {
      await watched.engine.runInWatch(watched.record.sessionId, paintCommands(id), ([fields = [], normal = [], visible = []]) => {
        const row = PAINT_FORMAT.parse(fields)[0];
        if (this.#closed || generation !== watched.generation || row?.paneId !== id) return;
        this.#send('screen', { key, width: Number(row.width), height: Number(row.height), paint: paintScreen(row, normal, visible) });
        watched.live = true;
      });
    } catch {
      // The pane or its session's watch is gone: the stream's close (or the next listing) takes it from here.
    }
  }

  #unwatch(watched: Watched): void {
    watched.generation++;
    watched.stop?.();
    watched.stop = undefined;
  }

  #queue(key: string, data: string): void {
    if (this.#behind) return;
    this.#pending.set(key, (this.#pending.get(key) ?? '') + data);
    this.#flushTimer ??= setTimeout(() => this.#flush(), FLUSH_MS);
  }

  #flush(): void {
    this.#flushTimer = undefined;
    for (const [key, data] of this.#pending) this.#send('output', { key, data });
    this.#pending.clear();
  }

  /** The page read what piled up: every pane is drawn afresh, since output was dropped meanwhile. */
  #caughtUp(): void {
    if (!this.#behind || this.#closed) return;
    this.#behind = false;
    for (const watched of this.#watched.values()) if (watched.stop) void this.#draw(watched);
  }

  #send(event: string, data: unknown): void {
    if (this.#closed) return;
    if (this.#res.writableLength > MAX_BUFFERED) {
      this.#behind = true;
      this.#pending.clear();
      if (event === 'output' || event === 'screen') return;
    }
    this.#res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}

/** The panes of one server as the page lists them, through the same listings the tools use. */
async function listView(engine: Engine, host: string | undefined): Promise<Array<{ pane: ViewPane; engine: Engine; record: PaneRecord }>> {
  const [windows, panes] = await Promise.all([listWindows(engine), listPanes(engine)]);
  const windowOf = new Map(windows.map((w) => [w.id, w]));
  const where = host ?? LOCAL_HOST;
  return panes.map((record) => ({
    engine,
    record,
    pane: {
      key: `${where}:${record.id}`,
      host: where,
      id: record.id,
      session: windowOf.get(record.windowId)?.sessionName ?? record.sessionId,
      window: `${windowOf.get(record.windowId)?.index ?? record.windowId}`,
      command: record.currentCommand,
      width: record.width,
      height: record.height,
    },
  }));
}
