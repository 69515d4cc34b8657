/** Every tool of the python contract, in one list (call_read_tools_batch is bound to its reach in ../index.ts). */
import type { PythonTool } from '../declare.js';
import { readToolsBatch } from './batch.js';
import { deleteBufferTool, loadBufferTool, pasteBufferTool, showBufferTool } from './buffers.js';
import { displayMessageTool, pipePaneTool } from './observe.js';
import { capturePane, snapshotPane } from './capture.js';
import { findPaneByPosition, getPaneInfo, getServerInfo, getSessionInfo, getWindowInfo } from './info.js';
import { pasteTextTool, sendKeysBatchTool, sendKeysTool } from './input.js';
import {
  clearPaneTool,
  createSessionTool,
  createWindowTool,
  killPaneTool,
  killSessionTool,
  killWindowTool,
  respawnPaneTool,
  splitWindowTool,
} from './lifecycle.js';
import { listPanes, listSessions, listWindows } from './listings.js';
import {
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
  enterCopyModeTool,
  exitCopyModeTool,
} from './manage.js';
import { runCommandTool } from './run.js';
import { killServerTool, listServersTool } from './servers.js';
import { searchPanesTool } from './search.js';
import { setEnvironmentTool, setOptionTool, showEnvironmentTool, showHookTool, showHooksTool, showOptionTool } from './settings.js';
import { captureSinceTool, signalChannelTool, waitForChannelTool, waitForTextTool } from './waits.js';

const TOOLS: readonly PythonTool[] = [
  listSessions, listWindows, listPanes, getServerInfo, getSessionInfo, getWindowInfo, getPaneInfo, findPaneByPosition,
  capturePane, snapshotPane, captureSinceTool, searchPanesTool, waitForTextTool, showOptionTool, showHooksTool,
  showHookTool, showEnvironmentTool, showBufferTool, displayMessageTool, loadBufferTool, pasteBufferTool, pipePaneTool,
  deleteBufferTool, enterCopyModeTool, exitCopyModeTool, setOptionTool, setEnvironmentTool, listServersTool, killServerTool,
  renameSessionTool, renameWindowTool, selectWindowTool, selectPaneTool, selectLayoutTool, resizePaneTool,
  resizeWindowTool, moveWindowTool, swapPaneTool, setPaneTitleTool, waitForChannelTool, signalChannelTool,
  createSessionTool, createWindowTool, splitWindowTool, respawnPaneTool, sendKeysTool, sendKeysBatchTool,
  pasteTextTool, runCommandTool,
  killPaneTool, killWindowTool, killSessionTool, clearPaneTool,
];

/** The batch's possible reach: every read tool that does not wait. */
export const BATCHABLE: readonly string[] = TOOLS.filter((t) => t.toolset === 'inspect' && !t.selfBounded).map((t) => t.name);

/** All tools, the batch declared over every batchable tool (the profile narrows it to what is not excluded). */
export const ALL_TOOLS: readonly PythonTool[] = [...TOOLS, readToolsBatch(BATCHABLE, TOOLS)];
