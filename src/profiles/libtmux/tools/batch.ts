/**
 * call_read_tools_batch: up to 16 read-only calls in one MCP round trip, run one after another. Its reach (which tools it may
 * call) and its advertised schema are derived from the nested tools this process actually has,
 * so exclusions narrow both: tools/index.ts declares it over the inspect tools, and the profile
 * rebinds it at start-up with `readToolsBatch(callable)`.
 */
import { type BatchOperation, runSerialBatch, shrinkBatchOutcome } from '../../../mcp/tools/batch.js';
import { array, boolean, enumOf, integer, type JsonSchema, nullable, object, string, typed } from '../../../mcp/tools/schema.js';
import { libtmuxTool, type LibtmuxTool, type OutputClass } from '../declare.js';

export const CALL_READ_TOOLS_BATCH = 'call_read_tools_batch';

/** Every inspect tool except the batch itself and wait_for_text (a wait would hold the whole batch). */
const READ_BATCH_AUTHORITY: readonly string[] = [
  'capture_pane',
  'capture_since',
  'find_pane_by_position',
  'get_pane_info',
  'get_server_info',
  'get_session_info',
  'get_tmux_variables',
  'get_window_info',
  'list_panes',
  'list_sessions',
  'list_windows',
  'search_panes',
  'show_environment',
  'show_hooks',
  'show_option',
  'snapshot_pane',
];

const MAX_OPERATIONS = 16;
const LABEL = 'Read batch';

const ON_ERROR = enumOf(['stop', 'continue'], {
  description:
    'What a failed operation does to the rest: "stop" (default) skips the remaining operations and sets stoppedAt; ' +
    '"continue" runs every operation regardless.',
});

const nestedEnvelope: JsonSchema = {
  type: ['object', 'null'],
  description: "The nested call's full answer, exactly as a direct call would return it; null when dropped for size (resultTruncated).",
  properties: {
    content: array(
      object({ text: string({ description: 'The text the nested call answered.' }), type: string({ description: 'Always "text".' }) }, [
        'text',
        'type',
      ]),
      { description: "The nested call's content blocks." },
    ),
    isError: boolean({ description: 'True when the nested call failed.' }),
    structuredContent: { description: "The nested call's structured result (shaped by that tool's outputSchema); null when it failed." },
  },
  required: ['content', 'structuredContent', 'isError'],
  additionalProperties: false,
};

const output = object(
  {
    failed: integer({ description: 'Operations that failed.' }),
    onError: string({ description: 'The onError policy that was applied.' }),
    results: array(
      object(
        {
          error: nullable('string', { description: 'Why the operation failed; null when it succeeded.' }),
          index: integer({ description: 'Position of the operation in `operations`, from 0.' }),
          result: nestedEnvelope,
          resultTruncated: boolean({ description: 'True when `result` was dropped to keep the response under its byte limit.' }),
          success: boolean({ description: 'True when the nested call succeeded.' }),
          tool: string({ description: 'The nested tool that ran.' }),
        },
        ['error', 'index', 'result', 'resultTruncated', 'success', 'tool'],
      ),
      { description: 'One row per operation that ran, in order; operations after a stop have no row.' },
    ),
    stoppedAt: nullable('integer', { description: 'Index of the failed operation that stopped the batch; null when it did not stop.' }),
    succeeded: integer({ description: 'Operations that succeeded.' }),
    truncated: boolean({ description: 'True when any nested result was dropped for size.' }),
    truncatedBytes: integer({ description: 'Encoded bytes of the dropped nested results.' }),
  },
  ['failed', 'onError', 'results', 'stoppedAt', 'succeeded', 'truncated', 'truncatedBytes'],
);

/** One `oneOf` branch per nested tool: its name as a constant and its own input schema. */
function operationSchema(tool: LibtmuxTool): JsonSchema {
  return object(
    {
      arguments: { ...tool.inputSchema, description: `Arguments for ${tool.name}, exactly as a direct call takes them. Default {}.` },
      tool: string({ const: tool.name, description: `Run ${tool.name}.` }),
    },
    ['tool'],
  );
}

/** Declares the batch over `available` tools: those in its authority that exist and are not excluded. */
export function readToolsBatch(available: readonly LibtmuxTool[]): LibtmuxTool {
  // By code unit: for names of a-z and _ the order of localeCompare, without building its ICU collator.
  const nested = available
    .filter((tool) => READ_BATCH_AUTHORITY.includes(tool.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = nested.map((tool) => tool.name);
  const outputClasses = [...new Set(nested.flatMap((tool) => tool.spec.outputClasses))].sort() as OutputClass[];
  const input = object(
    {
      onError: ON_ERROR,
      operations: array(typed<BatchOperation>(names.length ? { oneOf: nested.map(operationSchema) } : { not: {} }), {
        minItems: 1,
        maxItems: MAX_OPERATIONS,
        description: `1 to ${MAX_OPERATIONS} calls, run in order: each {tool, arguments}, tool one of ${names.join(', ') || '(none on this server)'}.`,
      }),
    },
    ['operations'],
  );
  // Checked before the handler: the envelope only. Each nested call checks its own arguments, so a
  // bad one becomes a failed row (and onError decides) instead of rejecting the batch.
  const envelope = object(
    {
      onError: ON_ERROR,
      operations: array(object({ arguments: { type: 'object' }, tool: string() }, ['tool']), { minItems: 1, maxItems: MAX_OPERATIONS }),
    },
    ['operations'],
  );
  const tool = libtmuxTool({
    name: CALL_READ_TOOLS_BATCH,
    title: 'Call read tools batch',
    description:
      'Run several read-only tools in one call, one after another, and get every answer back together: e.g. ' +
      'list_panes, then capture_pane on three panes, without a round trip each. Each operation is ' +
      '{tool, arguments}; arguments are exactly what a direct call takes and are checked the same way. ' +
      `Allowed tools: ${names.join(', ') || 'none on this server'}. Not atomic: the reads happen in sequence, ` +
      'so panes may change between them. onError "stop" (default) ends the batch at the first failure ' +
      '(stoppedAt gives its index); "continue" runs everything. Each row holds the nested call\'s full answer ' +
      '(content, structuredContent, isError). The response stays under 1,000,000 bytes: when results are too big, ' +
      'the results of the last rows are dropped (resultTruncated, truncated, truncatedBytes) and their metadata kept, ' +
      'so ask for less (smaller maxLines) and retry those. Waits and tools that type or change anything are not ' +
      'batched (one approval of this tool covers every nested call, so it only reads): call wait_for_text and those directly.',
    toolset: 'inspect',
    tmuxEffects: ['observe'],
    outputClasses,
    mayExposeSecrets: nested.some((t) => t.spec.mayExposeSecrets ?? true),
    mayReturnUntrustedContent: nested.some((t) => t.spec.mayReturnUntrustedContent ?? true),
    nestedAuthority: names,
    input,
    output,
    async handler(args, call) {
      return runSerialBatch(args.operations, call, { onError: args.onError ?? 'stop', maxOperations: MAX_OPERATIONS, label: LABEL });
    },
  });
  return { ...tool, nestedAuthority: names, argumentSchema: envelope, shrinkOutcome: (outcome) => shrinkBatchOutcome(outcome, LABEL) };
}
