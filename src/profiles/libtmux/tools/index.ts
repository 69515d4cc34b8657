/**
 * Every tool of the libtmux contract, in the contract's order. Each is declared through
 * `libtmuxTool` (../declare.ts) in the theme file of what it does: inspect, settings, manage,
 * input, lifecycle, wait, batch.
 */
import type { LibtmuxTool } from '../declare.js';
import { readToolsBatch } from './batch.js';
import { pasteTextTool, sendKeysBatchTool, sendKeysTool, signalChannelTool, waitForChannelTool } from './input.js';
import {
  capturePaneTool,
  findPaneByPositionTool,
  getPaneInfoTool,
  getServerInfoTool,
  getSessionInfoTool,
  getWindowInfoTool,
  listPanesTool,
  listSessionsTool,
  listWindowsTool,
  searchPanesTool,
  snapshotPaneTool,
} from './inspect.js';
import {
  clearPaneScrollbackTool,
  createSessionTool,
  createWindowTool,
  killPaneTool,
  killSessionTool,
  killWindowTool,
  respawnPaneTool,
  setSynchronizePanesTool,
  splitWindowTool,
} from './lifecycle.js';
import {
  moveWindowTool,
  renameSessionTool,
  renameWindowTool,
  resizePaneTool,
  resizeWindowTool,
  selectLayoutTool,
  selectPaneTool,
  selectWindowTool,
  setHistoryLimitTool,
  setMouseEnabledTool,
  setPaneTitleTool,
  swapPaneTool,
} from './manage.js';
import { getTmuxVariablesTool, showEnvironmentTool, showHooksTool, showOptionTool } from './settings.js';
import { captureSinceTool, runShellCommandTool, waitForTextTool } from './wait.js';

const TOOLS: readonly LibtmuxTool[] = [
  capturePaneTool,
  listPanesTool,
  listSessionsTool,
  getServerInfoTool,
  getSessionInfoTool,
  getWindowInfoTool,
  getPaneInfoTool,
  listWindowsTool,
  snapshotPaneTool,
  findPaneByPositionTool,
  getTmuxVariablesTool,
  showOptionTool,
  showEnvironmentTool,
  showHooksTool,
  searchPanesTool,
  captureSinceTool,
  moveWindowTool,
  renameSessionTool,
  renameWindowTool,
  resizePaneTool,
  resizeWindowTool,
  selectLayoutTool,
  selectPaneTool,
  selectWindowTool,
  setHistoryLimitTool,
  setMouseEnabledTool,
  setPaneTitleTool,
  swapPaneTool,
  sendKeysTool,
  sendKeysBatchTool,
  pasteTextTool,
  waitForChannelTool,
  signalChannelTool,
  createSessionTool,
  createWindowTool,
  splitWindowTool,
  respawnPaneTool,
  setSynchronizePanesTool,
  killPaneTool,
  killWindowTool,
  killSessionTool,
  clearPaneScrollbackTool,
  waitForTextTool,
  runShellCommandTool,
];

/**
 * All tools, the read batch declared over every tool in its reach, so this list holds its full
 * contract; the profile rebinds it at start-up over the tools selection leaves callable.
 */
export const ALL_TOOLS: readonly LibtmuxTool[] = [...TOOLS, readToolsBatch(TOOLS)];
