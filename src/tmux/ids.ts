/**
 * The shapes of tmux's own object ids: `%3` a pane, `@1` a window, `$0` a session.
 * A pane id is written the way tmux writes it (`%` and a number without leading zeros): tmux would
 * also read `%03` as `%3`, but ids are compared as strings (scope, input queues, allowed panes), so
 * a second spelling of one pane is refused rather than treated as another pane.
 */
export const PANE_ID_PATTERN = '^%(0|[1-9][0-9]*)$';
export const PANE_ID = new RegExp(PANE_ID_PATTERN);
export const WINDOW_ID = /^@\d+$/;
export const SESSION_ID = /^\$\d+$/;
