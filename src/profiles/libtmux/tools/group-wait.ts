/** The wait tools of this profile; each lives in its own file in this folder. */
import type { LibtmuxTool } from '../declare.js';
import { runShellCommandTool } from './run-shell-command.js';
import { waitForTextTool } from './wait-for-text.js';

export const WAIT_TOOLS: readonly LibtmuxTool[] = [waitForTextTool, runShellCommandTool];
