/**
 * The batch tools of this profile; each lives in its own file in this folder. The read batch here
 * can call nothing until the profile rebinds it over the tools that exist (see readToolsBatch).
 */
import type { LibtmuxTool } from '../declare.js';
import { callReadToolsBatch } from './call-read-tools-batch.js';

export const BATCH_TOOLS: readonly LibtmuxTool[] = [callReadToolsBatch];
