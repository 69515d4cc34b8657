/**
 * Every tool of the python contract, in the contract's order (call_read_tools_batch is bound to its
 * reach in ../index.ts). Each is declared through `pythonTool` (../declare.ts) in the theme file of
 * what it does: inspect, settings, manage, input, lifecycle, wait, batch.
 */
import type { PythonTool } from '../declare.js';
import { readToolsBatch } from './batch.js';
import {
  deleteBufferTool,
  loadBufferTool,
  pasteBufferTool,
  pasteTextTool,
  pipePaneTool,
  sendKeysBatchTool,
  sendKeysTool,
  showBufferTool,
  signalChannelTool,
  waitForChannelTool,
} from './input.js';
import {
  capturePaneTool,
  displayMessageTool,
  findPaneByPositionTool,
  getPaneInfoTool,
  getServerInfoTool,
  getSessionInfoTool,
  getWindowInfoTool,
  listPanesTool,
  listServersTool,
  listSessionsTool,
  listWindowsTool,
  searchPanesTool,
  snapshotPaneTool,
} from './inspect.js';
import {
  clearPaneTool,
  createSessionTool,
  createWindowTool,
  killPaneTool,
  killServerTool,
  killSessionTool,
  killWindowTool,
  respawnPaneTool,
  splitWindowTool,
} from './lifecycle.js';
import {
  enterCopyModeTool,
  exitCopyModeTool,
  moveWindowTool,
  renameSessionTool,
  renameWindowTool,
  resizePaneTool,
  resizeWindowTool,
  selectLayoutTool,
  selectPaneTool,
  selectWindowTool,
  setPaneTitleTool,
  swapPaneTool,
} from './manage.js';
import { setEnvironmentTool, setOptionTool, showEnvironmentTool, showHookTool, showHooksTool, showOptionTool } from './settings.js';
import { captureSinceTool, runCommandTool, waitForTextTool } from './wait.js';

const TOOLS: readonly PythonTool[] = [
  listSessionsTool,
  listWindowsTool,
  listPanesTool,
  getServerInfoTool,
  getSessionInfoTool,
  getWindowInfoTool,
  getPaneInfoTool,
  findPaneByPositionTool,
  capturePaneTool,
  snapshotPaneTool,
  captureSinceTool,
  searchPanesTool,
  waitForTextTool,
  showOptionTool,
  showHooksTool,
  showHookTool,
  showEnvironmentTool,
  showBufferTool,
  displayMessageTool,
  loadBufferTool,
  pasteBufferTool,
  pipePaneTool,
  deleteBufferTool,
  enterCopyModeTool,
  exitCopyModeTool,
  setOptionTool,
  setEnvironmentTool,
  listServersTool,
  killServerTool,
  renameSessionTool,
  renameWindowTool,
  selectWindowTool,
  selectPaneTool,
  selectLayoutTool,
  resizePaneTool,
  resizeWindowTool,
  moveWindowTool,
  swapPaneTool,
  setPaneTitleTool,
  waitForChannelTool,
  signalChannelTool,
  createSessionTool,
  createWindowTool,
  splitWindowTool,
  respawnPaneTool,
  sendKeysTool,
  sendKeysBatchTool,
  pasteTextTool,
  runCommandTool,
  killPaneTool,
  killWindowTool,
  killSessionTool,
  clearPaneTool,
];

/** The batch's possible reach: every read tool that does not wait. */
export const BATCHABLE: readonly string[] = TOOLS.filter((t) => t.toolset === 'inspect' && !t.selfBounded).map((t) => t.name);

/** All tools, the batch declared over every batchable tool (the profile narrows it to what is not excluded). */
export const ALL_TOOLS: readonly PythonTool[] = [...TOOLS, readToolsBatch(BATCHABLE, TOOLS)];
