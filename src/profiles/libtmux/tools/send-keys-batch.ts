import { array, enumOf, integer, object, string } from '../../../mcp/tools/schema.js';
import { prepareKeys, sendKeys, type SendKeysRequest } from '../../../core/act/input.js';
import { describeError } from '../../../mcp/tools/results.js';
import { asFailure } from '../../../core/failure.js';
import { libtmuxTool } from '../declare.js';
import { SEND_KEYS_FIELDS, type SendKeysArgs } from './send-keys.js';

/** Most operations one batch may carry. */
const MAX_OPERATIONS = 64;

interface FailedOperation {
  index: number;
  reason: string;
}

export const sendKeysBatch = libtmuxTool({
  name: 'send_keys_batch',
  title: 'Send keys batch',
  description:
    `Send several send_keys operations in one call, in order (at most ${MAX_OPERATIONS}), e.g. the same command to ` +
    'several panes, or a sequence of keys to a TUI. Each operation takes the same arguments as send_keys, with the ' +
    'same defaults (literal false, enter false, force false) and the same refusals. Every operation is checked ' +
    '(pane exists, keys are valid, pane is alive, not in a mode, not this server\'s own pane) before anything is ' +
    'sent. With onError "stop" (the default) a failed check sends nothing at all, and a failure while sending ' +
    'stops the rest; with "continue" the operations that pass are sent and the others are reported. Returns how ' +
    'many operations were sent, the failures by index, and which panes each sent operation reached. The batch ' +
    'does not wait between operations: to run commands and collect output use run_shell_command.',
  toolset: 'execute',
  processReach: 'pane-input',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  input: object(
    {
      operations: array(object(SEND_KEYS_FIELDS, ['paneId', 'keys']), {
        maxItems: MAX_OPERATIONS,
        description: `The send_keys operations, run in this order; at most ${MAX_OPERATIONS}.`,
      }),
      onError: enumOf(['stop', 'continue'], {
        description: '"stop" (default): if any operation fails its checks nothing is sent, and a failure while sending stops the rest. "continue": send every operation that can be sent.',
      }),
    },
    ['operations'],
  ),
  output: object(
    {
      completed: integer({ description: 'How many operations were sent.' }),
      failures: array(
        object(
          {
            index: integer({ description: 'Position of the operation in `operations`, from 0.' }),
            reason: string({ description: 'Why it was not sent (or not completely).' }),
          },
          ['index', 'reason'],
        ),
        { description: 'Operations that failed, by index; empty when all were sent.' },
      ),
      targets: array(
        object(
          {
            index: integer({ description: 'Position of the operation in `operations`, from 0.' }),
            resolvedPaneIds: array(string(), { description: 'Every pane this operation reached: its pane first, then panes synchronize-panes copied it to.' }),
          },
          ['index', 'resolvedPaneIds'],
        ),
        { description: 'The operations that were sent, by index.' },
      ),
    },
    ['completed', 'failures', 'targets'],
  ),
  async handler(args: { operations: SendKeysArgs[]; onError?: 'stop' | 'continue' }, { ctx, signal }) {
    const { engine } = ctx;
    const stop = (args.onError ?? 'stop') === 'stop';
    const requests: SendKeysRequest[] = args.operations.map((op, index) => ({
      pane: op.paneId,
      keys: op.keys,
      literal: op.literal ?? false,
      enter: op.enter ?? false,
      force: op.force,
      fields: { pane: `operations[${index}].paneId`, keys: `operations[${index}].keys` },
    }));

    // First every operation is checked, with no effect on any pane.
    const failures: FailedOperation[] = [];
    for (const [index, request] of requests.entries()) {
      try {
        await prepareKeys(engine, request);
      } catch (error) {
        failures.push({ index, reason: reasonFor(error) });
      }
    }
    if (failures.length > 0 && stop) return { structured: { completed: 0, failures, targets: [] } };

    const skipped = new Set(failures.map((f) => f.index));
    const targets: Array<{ index: number; resolvedPaneIds: string[] }> = [];
    for (const [index, request] of requests.entries()) {
      if (skipped.has(index)) continue;
      if (signal.aborted) {
        failures.push({ index, reason: 'not sent: the call was cancelled' });
        break;
      }
      try {
        const sent = await sendKeys(engine, request);
        targets.push({ index, resolvedPaneIds: [...sent.target.receivers] });
      } catch (error) {
        failures.push({ index, reason: reasonFor(error) });
        if (stop) break;
      }
    }
    failures.sort((a, b) => a.index - b.index);
    return { structured: { completed: targets.length, failures, targets } };
  },
});

/** A failed operation's reason; anything that is not an expected failure is a bug and propagates. */
function reasonFor(error: unknown): string {
  if (asFailure(error)) return describeError(error);
  throw error;
}
