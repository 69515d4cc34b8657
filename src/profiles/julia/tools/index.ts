/**
 * Every tool of the julia contract but run_operations (built over the others in force, ./batch.ts),
 * in the contract's order. Each is declared through `juliaTool` (../declare.ts) in the theme file of
 * what it does: inspect, input, manage, lifecycle, wait, batch.
 */
import type { JuliaTool } from '../declare.js';
import { pasteText, sendKeys } from './input.js';
import { capturePane, listPanes } from './inspect.js';
import { createSession, killPane, teardownSession } from './lifecycle.js';
import { resizePane } from './manage.js';
import { sendKeysAndWait, waitForText } from './wait.js';

export const CATALOG: readonly JuliaTool[] = [
  listPanes,
  capturePane,
  sendKeys,
  pasteText,
  resizePane,
  killPane,
  createSession,
  teardownSession,
  waitForText,
  sendKeysAndWait,
];
