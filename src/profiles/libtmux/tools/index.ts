/**
 * Every tool of the libtmux contract, in one list, in the contract's order. A theme file in this
 * folder declares the tools of one theme (inspect, manage, input, lifecycle, wait, batch), each
 * through `libtmuxTool` (../declare.ts).
 */
import type { LibtmuxTool } from '../declare.js';
import { readToolsBatch } from './batch.js';
import { INPUT_TOOLS } from './input.js';
import { INSPECT_TOOLS } from './inspect.js';
import { LIFECYCLE_TOOLS } from './lifecycle.js';
import { MANAGE_TOOLS } from './manage.js';
import { WAIT_TOOLS } from './wait.js';

/** The read batch is declared over every read tool, so this list holds its full contract; the profile rebinds it at start-up over the tools selection leaves callable. */
export const ALL_TOOLS: readonly LibtmuxTool[] = [
  ...INSPECT_TOOLS,
  ...MANAGE_TOOLS,
  ...INPUT_TOOLS,
  ...LIFECYCLE_TOOLS,
  ...WAIT_TOOLS,
  readToolsBatch(INSPECT_TOOLS),
];
