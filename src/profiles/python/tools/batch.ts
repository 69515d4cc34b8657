/**
 * call_read_tools_batch: several read-only tools in one call, run one after another through the
 * same path a direct call takes (src/mcp/tools/batch.ts). Its reach is fixed at start-up from the tools this process has: inspect tools, not
 * self-bounded (a wait would hold the batch), not excluded. A tool outside it fails its own row;
 * the rest still run (or stop, with on_error "stop").
 */
import { jsonBytes, runSerialBatch, type BatchReport, type BatchRow } from '../../../mcp/tools/batch.js';
import type { ToolOutcome } from '../../../mcp/tools/tool.js';
import { shown } from '../../../core/index.js';
import { pythonTool, type PythonTool } from '../declare.js';
import { choice, defaulted, field, item, listOf, model, optional, params } from '../schema.js';
import { typed } from '../../../mcp/tools/schema.js';

export const CALL_READ_TOOLS_BATCH = 'call_read_tools_batch';
const MAX_OPERATIONS = 1000;

const DROPPED = [{ type: 'text', text: '[... batch truncated nested content ...]' }];

interface Row {
  index: number;
  tool: string;
  success: boolean;
  error: string | null;
  content: Array<Record<string, unknown>>;
  structured_content: Record<string, unknown> | null;
  meta: Record<string, unknown> | null;
  elapsed_seconds: number;
}

/** Why `tool` may not run in the batch, in the words the Python server uses. */
function outsideReach(all: readonly PythonTool[]): (tool: string) => string {
  return (tool) => {
    const known = all.find((t) => t.name === tool);
    if (!known) return `Unknown tool: '${shown(tool, 64)}'`;
    if (tool === CALL_READ_TOOLS_BATCH) return 'Batch tools cannot call batch tools recursively.';
    if (known.selfBounded) return `Tool '${tool}' enforces its own wait ceiling and cannot be batched; call it directly.`;
    if (known.toolset !== 'inspect')
      return `Tool '${tool}' is in the '${known.toolset}' toolset, which exceeds this batch's read-only reach; call it directly.`;
    return `Tool '${tool}' is excluded on this server (LIBTMUX_EXCLUDE_TOOLS).`;
  };
}

/** The batch over `reach` (the tool names it may call); `all` words the refusals for the others. */
export function readToolsBatch(reach: readonly string[], all: readonly PythonTool[]): PythonTool {
  const tool = pythonTool({
    name: CALL_READ_TOOLS_BATCH,
    title: 'Call Read Tools Batch',
    description:
      'Run several read-only tools in one call, one after another, and get every answer back together: e.g. list_panes ' +
      'then capture_pane on three panes, without a round trip each. Each operation is {tool, arguments}, with arguments ' +
      `exactly as a direct call takes them (checked the same way). Allowed: ${reach.join(', ') || 'none on this server'}; ` +
      'not the waits (wait_for_text) or anything that changes tmux (call those directly). on_error "stop" (default) ends ' +
      'at the first failed operation (stopped_at); "continue" runs them all. Each row has the nested call\'s content, ' +
      'structured_content, error and elapsed_seconds. At most 1000 operations; when the whole answer would pass ' +
      "1,000,000 bytes, the last rows' content is replaced by a marker (response_truncated) and you can ask for those again.",
    toolset: 'inspect',
    input: params(
      {
        operations: listOf(
          item(
            {
              arguments: typed<Record<string, unknown>>({
                additionalProperties: true,
                description: 'Arguments for the tool, as a direct call takes them. Default {}.',
                type: 'object',
              }),
              tool: field('string', 'Name of a read-only tool, like "capture_pane".'),
            },
            ['tool'],
            'One nested tool call.',
          ),
          'The calls to run, in order: {tool, arguments}.',
        ),
        on_error: choice(['stop', 'continue'], '"stop" (default): end at the first failed operation. "continue": run every operation.', {
          fallback: 'stop',
        }),
      },
      ['operations'],
    ),
    output: model(
      {
        failed: field('integer', 'Operations that failed.'),
        response_truncated: defaulted(
          'boolean',
          false,
          "True when some rows' content was replaced to keep the answer under 1,000,000 bytes.",
        ),
        response_truncated_bytes: defaulted('integer', 0, 'Bytes of nested content left out for size.'),
        results: {
          description: 'One row per operation that ran, in order.',
          items: model(
            {
              content: {
                description: "The nested call's content blocks.",
                items: { additionalProperties: true, type: 'object' },
                type: 'array',
              },
              elapsed_seconds: field('number', 'Seconds the nested call took.'),
              error: optional('string', 'Why it failed; null when it succeeded.'),
              index: field('integer', 'Position in `operations`, from 0.'),
              meta: optional({ additionalProperties: true, type: 'object' }, "The nested result's _meta, if any."),
              structured_content: optional(
                { additionalProperties: true, type: 'object' },
                "The nested call's structured result; null when it failed, has none, or was dropped for size.",
              ),
              success: field('boolean', 'True when the nested call succeeded.'),
              tool: field('string', 'The tool that ran.'),
            },
            ['index', 'tool', 'success', 'elapsed_seconds'],
          ),
          type: 'array',
        },
        stopped_at: optional('integer', 'Index of the failed operation that stopped the batch; null when every operation ran.'),
        succeeded: field('integer', 'Operations that succeeded.'),
      },
      ['succeeded', 'failed'],
    ),
    async handler(args, call) {
      // Each operation gets its own arguments object, which names it in `took`.
      const operations = args.operations.map((operation) => ({ tool: operation.tool, arguments: operation.arguments ?? {} }));
      const took = new Map<unknown, number>();
      const nested = call.nested!;
      const timed = {
        names: nested.names,
        async call(name: string, nestedArgs: unknown, index?: number) {
          const started = performance.now();
          try {
            return await nested.call(name, nestedArgs, index);
          } finally {
            took.set(nestedArgs, Math.round(performance.now() - started) / 1000);
          }
        },
      };
      const outcome = await runSerialBatch(
        operations,
        { ...call, ctx: call.ctx, nested: timed },
        {
          onError: args.on_error ?? 'stop',
          maxOperations: MAX_OPERATIONS,
          label: 'Read batch',
          outsideReach: outsideReach(all),
        },
      );
      const report = outcome.structured as unknown as BatchReport;
      const results: Row[] = report.results.map((row) => ({
        index: row.index,
        tool: row.tool,
        success: row.success,
        error: row.error,
        content: row.result === null ? DROPPED : row.result.content,
        structured_content: (row.result?.structuredContent as Record<string, unknown> | null | undefined) ?? null,
        meta: null,
        elapsed_seconds: took.get(operations[row.index]!.arguments) ?? 0,
      }));
      const structured = {
        results,
        succeeded: report.succeeded,
        failed: report.failed,
        stopped_at: report.stoppedAt,
        response_truncated: report.truncated,
        response_truncated_bytes: report.truncatedBytes,
      };
      return { structured, text: outcome.text, structuredBytes: structuredBytes(structured, report.results, outcome.rowBytes) };
    },
  });
  return { ...tool, nestedAuthority: [...reach], shrinkOutcome: shrink };
}

/**
 * The encoded size of the answer, from the sizes runSerialBatch counted: a row differs from the
 * report's row it came from only in its small fields, so the nested content, the bulk of it, is
 * not encoded again just to be measured (one encoding of a row minus the other, content left out).
 */
function structuredBytes(structured: { results: Row[] }, rows: readonly BatchRow[], rowBytes: readonly number[]): number {
  let bytes = jsonBytes({ ...structured, results: [] }) + Math.max(0, rows.length - 1);
  structured.results.forEach((row, i) => {
    const source = rows[i]!;
    const counted = rowBytes[i];
    if (counted === undefined || source.result === null) bytes += jsonBytes(row);
    else {
      const theirs = jsonBytes({ ...source, result: { ...source.result, content: 0, structuredContent: 0 } });
      bytes += counted - theirs + jsonBytes({ ...row, content: 0, structured_content: 0 });
    }
  });
  return bytes;
}

/** The same answer with one more row's nested content replaced by the marker; undefined when none is left. */
function shrink(outcome: ToolOutcome): ToolOutcome | undefined {
  const structured = outcome.structured as { results: Row[]; response_truncated_bytes: number };
  const results = structured.results.map((row) => ({ ...row }));
  for (let i = results.length - 1; i >= 0; i--) {
    const row = results[i]!;
    if (row.content === DROPPED && row.structured_content === null) continue;
    const bytes = Buffer.byteLength(JSON.stringify([row.content, row.structured_content]), 'utf8');
    results[i] = { ...row, content: DROPPED, structured_content: null };
    return {
      structured: {
        ...structured,
        results,
        response_truncated: true,
        response_truncated_bytes: structured.response_truncated_bytes + bytes,
      },
      text: `Read batch: rows from operations[${i}] on were cut to stay under the response limit; see structured content.`,
    };
  }
  return undefined;
}
