/** The shapes of tmux's own object ids: `%3` a pane, `@1` a window, `$0` a session. */
export const PANE_ID = /^%\d+$/;
export const WINDOW_ID = /^@\d+$/;
export const SESSION_ID = /^\$\d+$/;
