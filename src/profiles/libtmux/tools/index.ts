/** Every tool of the libtmux contract, in one list. */
import type { LibtmuxTool } from '../declare.js';
import { capturePane } from './capture-pane.js';
import { BATCH_TOOLS } from './group-batch.js';
import { INPUT_TOOLS } from './group-input.js';
import { INSPECT_TOOLS } from './group-inspect.js';
import { LIFECYCLE_TOOLS } from './group-lifecycle.js';
import { MANAGE_TOOLS } from './group-manage.js';
import { WAIT_TOOLS } from './group-wait.js';
import { listPanes } from './list-panes.js';
import { listSessions } from './list-sessions.js';

export const ALL_TOOLS: readonly LibtmuxTool[] = [
  capturePane,
  listPanes,
  listSessions,
  ...INSPECT_TOOLS,
  ...MANAGE_TOOLS,
  ...INPUT_TOOLS,
  ...LIFECYCLE_TOOLS,
  ...WAIT_TOOLS,
  ...BATCH_TOOLS,
];
