/** The input tools of this profile; each lives in its own file in this folder. */
import type { LibtmuxTool } from '../declare.js';
import { pasteText } from './paste-text.js';
import { sendKeysBatch } from './send-keys-batch.js';
import { sendKeys } from './send-keys.js';
import { signalChannel } from './signal-channel.js';
import { waitForChannel } from './wait-for-channel.js';

export const INPUT_TOOLS: readonly LibtmuxTool[] = [sendKeys, sendKeysBatch, pasteText, waitForChannel, signalChannel];
