/**
 * The batch tools of this profile; each lives in its own file in this folder. The read batch is
 * declared here over the read tools that exist, so ALL_TOOLS holds its full contract; the profile
 * rebinds it at start-up over the tools selection leaves callable (exclusions narrow it).
 */
import type { LibtmuxTool } from '../declare.js';
import { capturePane } from './capture-pane.js';
import { readToolsBatch } from './call-read-tools-batch.js';
import { INSPECT_TOOLS } from './group-inspect.js';
import { listPanes } from './list-panes.js';
import { listSessions } from './list-sessions.js';

export const BATCH_TOOLS: readonly LibtmuxTool[] = [readToolsBatch([capturePane, listPanes, listSessions, ...INSPECT_TOOLS])];
