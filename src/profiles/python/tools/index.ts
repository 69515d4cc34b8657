/** Every tool of the python contract, in one list. */
import type { PythonTool } from '../declare.js';
import { capturePane, snapshotPane } from './capture.js';
import { findPaneByPosition, getPaneInfo, getServerInfo, getSessionInfo, getWindowInfo } from './info.js';
import { listPanes, listSessions, listWindows } from './listings.js';

export const ALL_TOOLS: readonly PythonTool[] = [
  listSessions,
  listWindows,
  listPanes,
  getServerInfo,
  getSessionInfo,
  getWindowInfo,
  getPaneInfo,
  findPaneByPosition,
  capturePane,
  snapshotPane,
];
