/** wait_for_text and send_keys_and_wait: woken by the pane's output, bounded by the call's deadline. */
import { type Engine, Failure, getPane, type PaneRecord, sendKeys, staleTarget, typedKeys, waitForLiteral } from '../../../core/index.js';
import { boolean, object, string, type JsonSchema } from '../../../mcp/tools/schema.js';
import type { PaneTarget } from '../app.js';
import { checkKeys, checkTarget, checkText } from '../checks.js';
import { CHANGE, juliaTool, requiredWithTarget, WAIT, type RunCall, type SchemaSettings } from '../declare.js';
import { keysFields, outcomes, targetIn, targetOut, waitText } from '../schemas.js';

const matched = object(
  {
    continuity: { const: 'reset' },
    evidence: { const: 'literal_text' },
    generationGuarantee: string(),
    keysSent: boolean(),
    matched: boolean(),
    source: { enum: ['baseline', 'output'] },
    target: targetOut,
    terminalContent: { const: 'data' },
    text: string(),
  },
  ['matched', 'source', 'terminalContent', 'evidence', 'continuity', 'text', 'generationGuarantee', 'keysSent', 'target'],
);

const textLimit = (settings: { maxCaptureBytes: number }) => Math.min(1024, settings.maxCaptureBytes);

const waitInput = <F extends Record<string, JsonSchema>, K extends (keyof F & string) | 'text'>(
  settings: SchemaSettings,
  fields: F,
  required: readonly K[],
) => object({ ...fields, target: targetIn, text: waitText(textLimit(settings)) }, requiredWithTarget(settings, required));

/** The pane behind a checked target, and its server's engine; a pane that vanished since listing is a stale target. */
async function paneOf(call: RunCall, target: PaneTarget): Promise<{ engine: Engine; pane: PaneRecord }> {
  const engine = await call.app.checkTarget(target);
  try {
    return { engine, pane: await getPane(engine, target.paneId) };
  } catch (error) {
    if (error instanceof Failure && error.kind === 'not_found') {
      throw staleTarget(target.paneId, 'The pane is gone; call list_panes.');
    }
    throw error;
  }
}

function answer(text: string, source: string, keysSent: boolean, target: PaneTarget) {
  return {
    matched: true,
    source,
    terminalContent: 'data',
    evidence: 'literal_text',
    continuity: 'reset',
    text,
    generationGuarantee: 'best_effort',
    keysSent,
    target,
  };
}

interface WaitArgs {
  target?: PaneTarget;
  text: string;
}

function planWait(args: WaitArgs, app: RunCall['app']) {
  checkTarget(args.target);
  checkText(args.text, textLimit(app.settings), 'text');
  return { target: app.planTarget(args.target), text: args.text };
}

export const waitForText = juliaTool({
  name: 'wait_for_text',
  targets: ['target.paneId'],
  description:
    'Wait until a pane prints the literal `text`, woken by tmux output rather than polling. What counts: everything ' +
    'the pane printed since this server last typed into it (send_keys, paste_text, send_keys_and_wait) or since the ' +
    'last wait on it stopped, whichever came later, even output that came before this call (source "output"). So a ' +
    'wait after starting a new build matches its "BUILD OK", not the last build\'s, and a second wait never matches ' +
    'the line the first one found. Only when this server has done neither on the pane does text already on the ' +
    'screen match at once (source "baseline"). A typed line echoes, so wait for what the command prints rather than ' +
    'what you typed (type `echo DO""NE`, wait for "DONE"). The text matches within one line. Bounded by the ' +
    "server's per-call deadline (--timeout); not appearing in time is the `deadline` error. To type something and " +
    'wait for its answer in one call use send_keys_and_wait.',
  mutating: false,
  annotations: WAIT,
  input: (settings) => waitInput(settings, {}, ['text']),
  output: outcomes(matched),
  plan: (args, app) => planWait(args, app),
  async run(plan, call) {
    const { engine, pane } = await paneOf(call, plan.target);
    const source = await waitForLiteral(engine, {
      pane,
      text: plan.text,
      baseline: { maxBytes: call.app.settings.maxCaptureBytes },
      // Once the watch is live and the screen did not show the text.
      before: () => call.progress(1, undefined, 'waiting'),
      timeoutMs: call.deadline.remainingMs() + 1000,
      signal: call.deadline.signal,
    });
    await call.progress(2, undefined, 'matched');
    return answer(plan.text, source, false, plan.target);
  },
});

export const sendKeysAndWait = juliaTool({
  name: 'send_keys_and_wait',
  targets: ['target.paneId'],
  description:
    'Send keys to a pane (as send_keys) and wait until the pane prints the literal `text`: only output printed after ' +
    'the keys went out can match, so an old prompt on screen does not. Use it to run a command and wait for its ' +
    'result line or the next prompt, e.g. keys ["make", "Enter"], text "Build finished". Bounded by the per-call ' +
    'deadline (--timeout); the keys may already have been typed when it runs out.',
  mutating: true,
  annotations: CHANGE,
  input: (settings) => waitInput(settings, keysFields, ['keys', 'text']),
  output: outcomes(matched),
  typed: (args) => [typedKeys({ keys: args.keys, literal: args.literal ?? false, enter: false })],
  plan(args, app) {
    checkKeys(args.keys);
    return { ...planWait(args, app), keys: args.keys, literal: args.literal ?? false };
  },
  async run(plan, call) {
    const { engine, pane } = await paneOf(call, plan.target);
    let keysSent = false;
    const source = await waitForLiteral(engine, {
      pane,
      text: plan.text,
      before: async () => {
        await call.progress(1, undefined, 'waiting');
        await sendKeys(engine, { pane: pane.id, keys: plan.keys, literal: plan.literal, enter: false });
        keysSent = true;
      },
      timeoutMs: call.deadline.remainingMs() + 1000,
      signal: call.deadline.signal,
    });
    await call.progress(2, undefined, 'matched');
    return answer(plan.text, source, keysSent, plan.target);
  },
});
