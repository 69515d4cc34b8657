/** The lifecycle tools of this profile; each lives in its own file in this folder. */
import type { LibtmuxTool } from '../declare.js';

export const LIFECYCLE_TOOLS: readonly LibtmuxTool[] = [];
