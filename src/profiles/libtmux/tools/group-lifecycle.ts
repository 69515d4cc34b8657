/** The lifecycle tools of this profile (create, split, respawn, synchronize, kill, clear); each lives in its own file in this folder. */
import type { LibtmuxTool } from '../declare.js';
import { clearPaneScrollback } from './clear-pane-scrollback.js';
import { createSession } from './create-session.js';
import { createWindow } from './create-window.js';
import { killPane } from './kill-pane.js';
import { killSession } from './kill-session.js';
import { killWindow } from './kill-window.js';
import { respawnPane } from './respawn-pane.js';
import { setSynchronizePanes } from './set-synchronize-panes.js';
import { splitWindow } from './split-window.js';

export const LIFECYCLE_TOOLS: readonly LibtmuxTool[] = [
  createSession,
  createWindow,
  splitWindow,
  respawnPane,
  setSynchronizePanes,
  killPane,
  killWindow,
  killSession,
  clearPaneScrollback,
];
