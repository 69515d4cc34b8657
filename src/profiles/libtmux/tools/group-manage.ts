/** The manage tools of this profile; each lives in its own file in this folder. */
import type { LibtmuxTool } from '../declare.js';

export const MANAGE_TOOLS: readonly LibtmuxTool[] = [];
