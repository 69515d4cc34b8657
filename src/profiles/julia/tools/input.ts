/** The input tools: typing keys into a pane, and pasting a block of text. */
import { pasteText as paste, sendKeys as send, typedKeys, typedText } from '../../../core/index.js';
import { string } from '../../../mcp/tools/schema.js';
import { checkKeys, checkText, planOn } from '../checks.js';
import { CHANGE, juliaTool } from '../declare.js';
import { keysFields, mutationDone, mutationOutput, paneInput } from '../schemas.js';

export const sendKeys = juliaTool({
  name: 'send_keys',
  targets: ['target.paneId'],
  description:
    'Type into a pane or press keys in it, as at its keyboard: answer a prompt, drive a full-screen program, interrupt ' +
    '(keys ["C-c"]). Strings that are tmux key names are pressed, others typed; no Enter is added, so run a line with ' +
    'keys ["make test", "Enter"]. Returns once tmux has the keys, without waiting for the program: to wait for its ' +
    'answer use send_keys_and_wait; for a large block of text use paste_text.',
  mutating: true,
  annotations: CHANGE,
  input: (settings) => paneInput(settings, keysFields, ['keys']),
  output: mutationOutput,
  typed: (args) => [typedKeys({ keys: args.keys, literal: args.literal ?? false, enter: false })],
  plan: (args, app) =>
    planOn(args, app, () => {
      checkKeys(args.keys);
      return { keys: args.keys, literal: args.literal ?? false };
    }),
  async run(plan, { app }) {
    const engine = await app.checkTarget(plan.target);
    await send(engine, { pane: plan.target.paneId, keys: plan.keys, literal: plan.literal, enter: false });
    return mutationDone(plan.target);
  },
});

const MAX_PASTE_BYTES = 65536;

export const pasteText = juliaTool({
  name: 'paste_text',
  targets: ['target.paneId'],
  description:
    'Insert a block of text into a pane in one go, through a private tmux buffer (deleted afterwards), with its ' +
    'newlines kept: a shell that supports bracketed paste inserts it without running each line. Nothing is pressed ' +
    'after it; follow with send_keys ["Enter"] to run it. Empty text checks the target and sends nothing. Prefer ' +
    'send_keys for short input and key presses.',
  mutating: true,
  annotations: CHANGE,
  input: (settings) =>
    paneInput(
      settings,
      {
        text: string({
          maxLength: MAX_PASTE_BYTES,
          description: `The text to insert, at most ${MAX_PASTE_BYTES} UTF-8 bytes; may be empty.`,
        }),
      },
      ['text'],
    ),
  output: mutationOutput,
  typed: (args) => [typedText(args.text)],
  plan: (args, app) =>
    planOn(args, app, () => {
      checkText(args.text, MAX_PASTE_BYTES, 'text');
      return { text: args.text };
    }),
  async run(plan, { app }) {
    const engine = await app.checkTarget(plan.target);
    await paste(engine, { pane: plan.target.paneId, text: plan.text });
    return mutationDone(plan.target);
  },
});
