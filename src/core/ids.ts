/** tmux's id shapes (src/tmux/ids.ts) for the layers above core, which speak to tmux only through core. */
export { PANE_ID, PANE_ID_PATTERN, SESSION_ID, WINDOW_ID } from '../tmux/ids.js';
