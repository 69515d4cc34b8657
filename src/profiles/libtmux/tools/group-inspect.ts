/** The inspect tools of this profile; each lives in its own file in this folder. */
import type { LibtmuxTool } from '../declare.js';
import { captureSinceTool } from './capture-since.js';
import { findPaneByPosition } from './find-pane-by-position.js';
import { getPaneInfo } from './get-pane-info.js';
import { getServerInfo } from './get-server-info.js';
import { getSessionInfo } from './get-session-info.js';
import { getTmuxVariables } from './get-tmux-variables.js';
import { getWindowInfo } from './get-window-info.js';
import { listWindows } from './list-windows.js';
import { searchPanesTool } from './search-panes.js';
import { showEnvironmentTool } from './show-environment.js';
import { showHooksTool } from './show-hooks.js';
import { showOptionTool } from './show-option.js';
import { snapshotPane } from './snapshot-pane.js';

export const INSPECT_TOOLS: readonly LibtmuxTool[] = [
  getServerInfo,
  getSessionInfo,
  getWindowInfo,
  getPaneInfo,
  listWindows,
  snapshotPane,
  findPaneByPosition,
  getTmuxVariables,
  showOptionTool,
  showEnvironmentTool,
  showHooksTool,
  searchPanesTool,
  captureSinceTool,
];
