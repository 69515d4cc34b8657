/**
 * The julia contract's schema pieces, built once: the `{paneId, generation}` target, the error
 * envelope branch, and the `{anyOf: [success, failure]}` shape every output schema has.
 */
import { array, boolean, object, string, type JsonSchema } from '../../mcp/tools/schema.js';
import { PANE_ID_PATTERN } from '../../core/index.js';
import type { PaneTarget } from './app.js';
import { requiredWithTarget, type SchemaSettings } from './declare.js';

const targetFields = {
  generation: string({
    maxLength: 128,
    description:
      'The generation list_panes gave with this pane: it names the tmux server incarnation, so a target from before a restart is refused instead of reaching a new pane with the same id. At most 128 bytes.',
  }),
  paneId: string({
    maxLength: 64,
    pattern: PANE_ID_PATTERN,
    description: 'The exact tmux pane id, like %3 (from list_panes). At most 64 bytes.',
  }),
};

/** A target in results: the same two fields, without the note on omitting it. */
export const targetOut = object(targetFields, ['paneId', 'generation']);

/** The `target` argument of every pane tool. */
export const targetIn = object(targetFields, ['paneId', 'generation'], {
  description:
    'The pane to act on, exactly as a list_panes row gives it ({paneId, generation}). Leave it out only when the server was started with --caller-pane; then that pane is used.',
});

export const errorBranch: JsonSchema = {
  type: 'object',
  properties: {
    error: object(
      {
        code: string(),
        effects: { enum: ['none', 'possible'] },
        message: string(),
        retryable: boolean(),
      },
      ['code', 'message', 'effects', 'retryable'],
    ),
  },
  required: ['error'],
};

/** Every output schema: the success branch or the error envelope. */
export function outcomes(...successes: JsonSchema[]): JsonSchema {
  return { type: 'object', anyOf: [...successes, errorBranch] };
}

/** The output of send_keys, paste_text, resize_pane and kill_pane: done, on this target. */
export const mutationOutput = outcomes(
  object({ completed: boolean(), generationGuarantee: string(), target: targetOut }, ['completed', 'generationGuarantee', 'target']),
);

/** Their success value. */
export const mutationDone = (target: PaneTarget) => ({ completed: true, generationGuarantee: 'best_effort', target });

/** The input of a tool that acts on one pane: its own fields, then `target`. */
export const paneInput = <F extends Record<string, JsonSchema>, K extends keyof F & string>(
  settings: SchemaSettings,
  fields: F,
  required: readonly K[],
) => object({ ...fields, target: targetIn }, requiredWithTarget(settings, required));

/** Keys as send_keys and send_keys_and_wait take them. */
export const keysFields = {
  keys: array(string({ maxLength: 1024, description: 'One key name or one piece of text; at most 1024 UTF-8 bytes.' }), {
    minItems: 1,
    maxItems: 64,
    description:
      'What to send, in order (1 to 64 strings, 8192 UTF-8 bytes in all). A string that is a tmux key name is pressed as that key (Enter, Escape, Tab, Up, C-c, M-x ...); any other string is typed as written. No Enter is added: include "Enter" to run a line.',
  }),
  literal: boolean({
    default: false,
    description: 'true: type every string as text, key names too ("Enter" types the word). Default false.',
  }),
};

/** The literal text the waits look for. */
export function waitText(maxBytes: number) {
  return string({
    minLength: 1,
    maxLength: maxBytes,
    description: `Literal text to wait for (no patterns); at most ${maxBytes} UTF-8 bytes. It matches within one line of the pane's text.`,
  });
}
