/** Every tool of the libtmux contract, in one list. */
import type { LibtmuxTool } from '../declare.js';
import { capturePane } from './capture-pane.js';
import { listPanes } from './list-panes.js';
import { listSessions } from './list-sessions.js';

export const ALL_TOOLS: readonly LibtmuxTool[] = [capturePane, listPanes, listSessions];
