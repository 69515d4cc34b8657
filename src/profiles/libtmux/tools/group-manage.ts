/** The manage tools of this profile; each lives in its own file in this folder. */
import type { LibtmuxTool } from '../declare.js';
import { moveWindow } from './move-window.js';
import { renameSession } from './rename-session.js';
import { renameWindow } from './rename-window.js';
import { resizePane } from './resize-pane.js';
import { resizeWindow } from './resize-window.js';
import { selectLayout } from './select-layout.js';
import { selectPane } from './select-pane.js';
import { selectWindow } from './select-window.js';
import { setHistoryLimit } from './set-history-limit.js';
import { setMouseEnabled } from './set-mouse-enabled.js';
import { setPaneTitle } from './set-pane-title.js';
import { swapPane } from './swap-pane.js';

export const MANAGE_TOOLS: readonly LibtmuxTool[] = [
  moveWindow,
  renameSession,
  renameWindow,
  resizePane,
  resizeWindow,
  selectLayout,
  selectPane,
  selectWindow,
  setHistoryLimit,
  setMouseEnabled,
  setPaneTitle,
  swapPane,
];
