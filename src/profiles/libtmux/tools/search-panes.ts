import { array, boolean, integer, object, string } from '../../../mcp/tools/schema.js';
import { compileMatcher, SEARCH_LIMITS, searchPanes } from '../../../core/read/search.js';
import { libtmuxTool } from '../declare.js';

export const searchPanesTool = libtmuxTool({
  name: 'search_panes',
  title: 'Search panes',
  description:
    'Find which panes show some text, and where: searches the newest `scrollbackLines` rows (default 500; screen ' +
    'and scrollback, wrapped rows joined) of every pane, or of one session\'s panes. The pattern is literal, ' +
    'case-sensitive text unless `regex` is true (JavaScript RegExp syntax; an invalid one fails before anything is ' +
    'read). Each match gives the pane, its ref, the 1-based row position (oldest captured row = 1) and the row ' +
    'text. Work is bounded: at most 200 panes, 20,000 rows, 1,000,000 bytes and 5 s per call, `maxMatchesPerPane` ' +
    '(default 50) and 128,000 bytes of matched text; `truncatedBy` names each limit that cut the search short ' +
    '(panes, lines, bytes, time, pane-output, matches, result-bytes). To read around a match use capture_pane; to ' +
    'wait for text to appear use wait_for_text.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['terminal-content', 'tmux-metadata'],
  input: object(
    {
      pattern: string({ 'x-libtmux-max-utf8-bytes': SEARCH_LIMITS.patternBytes, description: 'Text to find (or a regular expression with regex: true); at most 4096 UTF-8 bytes.' }),
      regex: boolean({ description: 'Treat pattern as a JavaScript regular expression. Default false (literal text).' }),
      maxMatchesPerPane: integer({ minimum: 1, maximum: 200, description: 'Most matches reported per pane, oldest rows first. Default 50.' }),
      scrollbackLines: integer({ minimum: 1, maximum: 2000, description: 'How many of each pane\'s newest rows to search, screen included. Default 500.' }),
      session: string({ description: 'Session id ($0), exact session name, or session ref: search only its panes. Optional.' }),
    },
    ['pattern'],
  ),
  output: object(
    {
      matches: array(
        object(
          {
            pane: string({ description: 'Pane id, like %3.' }),
            paneRef: string({ description: 'Pane ref, valid until the tmux server restarts.' }),
            line: integer({ description: '1-based position of the row among the rows captured from that pane, oldest first (wrapped rows joined).' }),
            text: string({ description: 'The whole matching row.' }),
          },
          ['line', 'pane', 'paneRef', 'text'],
        ),
        { description: 'Matches, by pane (tmux order) and row.' },
      ),
      panesSearched: integer({ description: 'Panes whose text was searched.' }),
      panesAvailable: integer({ description: 'Panes in scope, searched or not.' }),
      truncated: boolean({ description: 'True when a limit cut the search or its result short.' }),
      truncatedBy: array(string(), { description: 'Limits that were hit, sorted: bytes, lines, matches, pane-output, panes, result-bytes, time.' }),
    },
    ['matches', 'panesAvailable', 'panesSearched', 'truncated', 'truncatedBy'],
  ),
  async handler(
    args: { pattern: string; regex?: boolean; maxMatchesPerPane?: number; scrollbackLines?: number; session?: string },
    { ctx, signal, progress },
  ) {
    const { engine } = ctx;
    compileMatcher(args.pattern, args.regex ?? false); // a bad pattern fails before any tmux call
    const sessionId = args.session === undefined ? undefined : (await engine.resolveSession(args.session)).id;
    const result = await searchPanes(engine, {
      ...args,
      sessionId,
      signal,
      onPane: (done, total) => progress(done, total, `searched ${done} of ${total} panes`),
    });
    return {
      structured: {
        matches: result.matches.map((m) => ({ pane: m.paneId, paneRef: engine.ref('pane', m.paneId, result.incarnation!), line: m.line, text: m.text })),
        panesSearched: result.panesSearched,
        panesAvailable: result.panesAvailable,
        truncated: result.truncatedBy.length > 0,
        truncatedBy: result.truncatedBy,
      },
    };
  },
});
