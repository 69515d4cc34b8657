/** search_panes: which panes show some text, with the matching lines, paged over panes. */
import { SEARCH_LIMITS, searchPanes } from '../../../core/read/search.js';
import { invalidArgument } from '../../../core/failure.js';
import { listPaneDetails } from '../../../core/read/pane-details.js';
import { modelResult, pythonTool } from '../declare.js';
import { defaulted, field, optional, params, SESSION_TARGET, SOCKET_NAME } from '../schema.js';
import { checkTarget, resolveSession } from '../targets.js';

export const searchPanesTool = pythonTool({
  name: 'search_panes',
  title: 'Search Panes',
  description:
    'Find the panes whose text (screen and recent scrollback) contains a pattern, with the matching lines: "which pane ' +
    'shows the error?", "where is the server running?". Searches every pane of the server, or of one session. pattern is ' +
    'literal text unless regex true, and ignores case unless match_case true. Results are one row per pane (its command, ' +
    'directory, window and session, and matched_lines, the last max_matched_lines_per_pane of them), ordered by pane id ' +
    'and paged: limit panes per call (default 500, null for all) from offset (default 0); when truncated is true call ' +
    'again with offset + the number of rows. content_start and content_end bound the rows searched in each pane (0 = the ' +
    'top row of the screen, negative = scrollback, e.g. content_start -1000 to reach further back). To read one pane use capture_pane; list_panes matches metadata, not text.',
  toolset: 'inspect',
  input: params(
    {
      pattern: field('string', 'Text (or, with regex true, a JavaScript regular expression) to look for, within one line.'),
      regex: defaulted('boolean', false, 'Treat pattern as a regular expression. Default false: literal text.'),
      ...SESSION_TARGET,
      match_case: defaulted('boolean', false, 'Match case exactly. Default false: case is ignored.'),
      content_start: optional(
        'integer',
        `First row searched, as capture_pane's start counts rows: 0 is the top row of the screen, negative rows are scrollback above it (-1000 = from 1000 rows back). Default: ${SEARCH_LIMITS.scrollbackLines} rows back.`,
      ),
      content_end: optional('integer', 'Last row searched, counted the same way (0 = the top row of the screen, -1 = the newest row of scrollback). Default: the bottom of the screen.'),
      max_matched_lines_per_pane: defaulted('integer', 50, 'Most matching lines returned per pane, newest kept. Default 50.'),
      limit: optional('integer', 'Most panes returned in this page. Default 500; null: all.', 500),
      offset: defaulted('integer', 0, 'Panes to skip (in pane id order) before this page. Default 0.'),
      socket_name: SOCKET_NAME,
    },
    ['pattern'],
  ),
  async handler(args, { engine, signal }) {
    checkTarget(args);
    const perPane = args.max_matched_lines_per_pane ?? 50;
    const limit = args.limit === undefined ? 500 : args.limit;
    const offset = args.offset ?? 0;
    if (perPane < 1) throw invalidArgument(`max_matched_lines_per_pane must be positive (received ${perPane})`);
    if (limit !== null && limit < 1) throw invalidArgument(`limit must be positive or null (received ${limit})`);
    if (offset < 0) throw invalidArgument(`offset must not be negative (received ${offset})`);
    const sessionId = args.session_id != null || args.session_name != null ? (await resolveSession(engine, args)).id : undefined;
    // Rows above the screen asked for, plus room for the screen itself.
    const scrollback = args.content_start != null && args.content_start < 0 ? Math.min(-args.content_start + 1000, 100_000) : undefined;
    const found = await searchPanes(engine, {
      pattern: args.pattern,
      regex: args.regex ?? false,
      ignoreCase: !(args.match_case ?? false),
      maxMatchesPerPane: 10_000,
      ...(scrollback !== undefined ? { scrollbackLines: scrollback } : {}),
      ...(args.content_start != null ? { start: args.content_start } : {}),
      ...(args.content_end != null ? { end: args.content_end } : {}),
      ...(sessionId !== undefined ? { sessionId } : {}),
      signal,
    });
    const byPane = new Map<string, string[]>();
    for (const match of found.matches) byPane.set(match.paneId, [...(byPane.get(match.paneId) ?? []), match.text]);
    const ids = [...byPane.keys()].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
    const page = limit === null ? ids.slice(offset) : ids.slice(offset, offset + limit);
    const [panes, windows, caller] = await Promise.all([
      listPaneDetails(engine, sessionId !== undefined ? { sessionId } : {}),
      engine.listWindows(),
      Promise.resolve(engine.options.caller),
    ]);
    const paneById = new Map(panes.map((p) => [p.id, p]));
    const windowById = new Map(windows.map((w) => [w.id, w]));
    let clipped = false;
    const matches = await Promise.all(
      page.map(async (paneId) => {
        const pane = paneById.get(paneId);
        const window = pane ? windowById.get(pane.windowId) : undefined;
        const lines = byPane.get(paneId)!;
        if (lines.length > perPane) clipped = true;
        return {
          pane_id: paneId,
          pane_current_command: pane?.currentCommand ?? null,
          pane_current_path: pane?.currentPath ?? null,
          window_id: pane?.windowId ?? null,
          window_name: window?.name ?? null,
          session_id: pane?.sessionId ?? null,
          session_name: window?.sessionName ?? null,
          matched_lines: lines.slice(-perPane),
          is_caller: caller ? await engine.isCallerPane(paneId) : null,
        };
      }),
    );
    const skipped = limit === null ? [] : ids.slice(offset + limit);
    return modelResult({
      matches,
      truncated: clipped || skipped.length > 0 || found.truncatedBy.length > 0,
      truncated_panes: skipped,
      total_panes_matched: ids.length,
      offset,
      limit,
    });
  },
});
