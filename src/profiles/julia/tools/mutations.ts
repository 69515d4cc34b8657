/** The tools that act on one pane and answer `{completed, generationGuarantee, target}`: send_keys, paste_text, resize_pane, kill_pane. */
import { pasteText as paste, sendKeys as send } from '../../../core/act/input.js';
import { requestPaneSize } from '../../../core/arrange/resize.js';
import { killPane as kill } from '../../../core/arrange/teardown.js';
import { integer, object, string, type JsonSchema } from '../../../mcp/tools/schema.js';
import type { JuliaApp, PaneTarget } from '../app.js';
import { checkKeys, checkTarget, checkText } from '../checks.js';
import { CHANGE, juliaTool, requiredWithTarget, RESIZE, type SchemaSettings } from '../declare.js';
import { keysFields, mutationResult, outcomes, targetIn } from '../schemas.js';

const output = outcomes(mutationResult);

const done = (target: PaneTarget) => ({ completed: true, generationGuarantee: 'best_effort', target });

/** Plans a pane tool's target, then `rest`. */
function planOn<A extends { target?: PaneTarget }, P>(args: A, app: JuliaApp, rest: () => P): P & { target: PaneTarget } {
  checkTarget(args.target);
  const extra = rest();
  return { ...extra, target: app.planTarget(args.target) };
}

const paneInput = <F extends Record<string, JsonSchema>, K extends keyof F & string>(settings: SchemaSettings, fields: F, required: readonly K[]) =>
  object({ ...fields, target: targetIn }, requiredWithTarget(settings, required));

export const sendKeys = juliaTool({
  name: 'send_keys',
  description:
    'Type into a pane or press keys in it, as at its keyboard: answer a prompt, drive a full-screen program, interrupt ' +
    '(keys ["C-c"]). Strings that are tmux key names are pressed, others typed; no Enter is added, so run a line with ' +
    'keys ["make test", "Enter"]. Returns once tmux has the keys, without waiting for the program: to wait for its ' +
    'answer use send_keys_and_wait; for a large block of text use paste_text.',
  mutating: true,
  annotations: CHANGE,
  input: (settings) => paneInput(settings, keysFields, ['keys']),
  output,
  plan: (args: { target?: PaneTarget; keys: string[]; literal?: boolean }, app) =>
    planOn(args, app, () => {
      checkKeys(args.keys);
      return { keys: args.keys, literal: args.literal ?? false };
    }),
  async run(plan, { app }) {
    const engine = await app.checkTarget(plan.target);
    await send(engine, { pane: plan.target.paneId, keys: plan.keys, literal: plan.literal, enter: false });
    return done(plan.target);
  },
});

const MAX_PASTE_BYTES = 65536;

export const pasteText = juliaTool({
  name: 'paste_text',
  description:
    'Insert a block of text into a pane in one go, through a private tmux buffer (deleted afterwards), with its ' +
    'newlines kept: a shell that supports bracketed paste inserts it without running each line. Nothing is pressed ' +
    'after it; follow with send_keys ["Enter"] to run it. Empty text checks the target and sends nothing. Prefer ' +
    'send_keys for short input and key presses.',
  mutating: true,
  annotations: CHANGE,
  input: (settings) =>
    paneInput(settings, { text: string({ maxLength: MAX_PASTE_BYTES, description: `The text to insert, at most ${MAX_PASTE_BYTES} UTF-8 bytes; may be empty.` }) }, ['text']),
  output,
  plan: (args: { target?: PaneTarget; text: string }, app) =>
    planOn(args, app, () => {
      checkText(args.text, MAX_PASTE_BYTES, 'text');
      return { text: args.text };
    }),
  async run(plan, { app }) {
    const engine = await app.checkTarget(plan.target);
    await paste(engine, { pane: plan.target.paneId, text: plan.text });
    return done(plan.target);
  },
});

export const resizePane = juliaTool({
  name: 'resize_pane',
  description:
    'Ask tmux to make a pane `width` columns wide and/or `height` rows tall (1 to 10000 each; give at least one). ' +
    'tmux fits the request to the window: a pane alone in its window keeps the window size. Read the size that ' +
    'resulted from list_panes.',
  mutating: true,
  annotations: RESIZE,
  input: (settings) => ({
    ...paneInput(
      settings,
      {
        height: integer({ minimum: 1, maximum: 10000, description: 'Rows wanted, 1 to 10000.' }),
        width: integer({ minimum: 1, maximum: 10000, description: 'Columns wanted, 1 to 10000.' }),
      },
      [],
    ),
    anyOf: [{ required: ['width'] }, { required: ['height'] }],
  }),
  output,
  plan: (args: { target?: PaneTarget; width?: number; height?: number }, app) => planOn(args, app, () => ({ width: args.width, height: args.height })),
  async run(plan, { app }) {
    const engine = await app.checkTarget(plan.target);
    await engine.onPane(plan.target.paneId, () => requestPaneSize(engine, plan.target.paneId, plan));
    return done(plan.target);
  },
});

export const killPane = juliaTool({
  name: 'kill_pane',
  description:
    'Close a pane and end the program in it (tmux kill-pane); its window closes with its last pane, and the session ' +
    'with its last window. Irreversible. To stop only the running command and keep the pane, send_keys ["C-c"] instead.',
  mutating: true,
  annotations: CHANGE,
  input: (settings) => paneInput(settings, {}, []),
  output,
  plan: (args: { target?: PaneTarget }, app) => planOn(args, app, () => ({})),
  async run(plan, { app }) {
    const engine = await app.checkTarget(plan.target);
    await engine.onPane(plan.target.paneId, () => kill(engine, plan.target.paneId, false));
    return done(plan.target);
  },
});
