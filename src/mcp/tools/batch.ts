/**
 * The generic serial batch runner: runs a list of nested tool calls one after another through the
 * same path a direct `tools/call` takes (see `ToolCall.nested`), records one row per call, stops
 * or goes on after a failure, and keeps the whole answer inside a byte budget by dropping the
 * results of the last kept rows (their metadata always stays). Profiles only name the fields.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { Failure, invalidArgument, quoted, refused, shown, withoutControls } from '../../core/index.js';
import type { ToolCall, ToolOutcome } from './tool.js';

/** A batch's own budget for its JSON value; the rest of the 1,000,000-byte wire cap is for the envelope and the text. */
const BATCH_BUDGET_BYTES = 900_000;

export type OnError = 'stop' | 'continue';

export interface BatchOperation {
  readonly tool: string;
  readonly arguments?: unknown;
}

/** The nested call's answer as a row keeps it: text content, structured value, error flag. */
interface NestedEnvelope {
  readonly content: { type: 'text'; text: string }[];
  readonly structuredContent: unknown;
  readonly isError: boolean;
}

export interface BatchRow {
  readonly index: number;
  readonly tool: string;
  readonly success: boolean;
  readonly error: string | null;
  /** Null once dropped for size; `resultTruncated` then says so. */
  result: NestedEnvelope | null;
  resultTruncated: boolean;
}

export interface BatchReport {
  results: BatchRow[];
  readonly onError: OnError;
  succeeded: number;
  failed: number;
  stoppedAt: number | null;
  truncated: boolean;
  truncatedBytes: number;
}

/**
 * A batch's answer, with each row's encoded size as its report counted it (`rowBytes[i]` for
 * `results[i]`): a profile that reshapes the rows need not encode them again to measure them.
 */
export interface BatchOutcome extends ToolOutcome {
  readonly rowBytes: readonly number[];
}

export interface BatchOptions {
  readonly onError: OnError;
  readonly maxOperations: number;
  readonly budgetBytes?: number;
  /** Names the batch in its text summary, e.g. "Read batch". */
  readonly label: string;
  /**
   * Why a tool outside the batch's reach may not run, as the error of that operation's row. Without
   * it such a batch is refused whole before anything runs; with it, that operation fails alone.
   */
  readonly outsideReach?: (tool: string) => string;
}

/**
 * Runs `operations` serially. Whole-call problems (too many operations, a tool outside the
 * batch's reach) are thrown before anything runs; a nested call's own failure, including its
 * argument validation, is a row.
 */
export async function runSerialBatch(
  operations: readonly BatchOperation[],
  call: ToolCall<unknown>,
  options: BatchOptions,
): Promise<BatchOutcome> {
  const nested = call.nested;
  if (!nested) throw new Failure('internal', 'this batch was started without nested authority');
  if (operations.length < 1 || operations.length > options.maxOperations) {
    throw invalidArgument(`operations must hold 1 to ${options.maxOperations} calls, not ${operations.length}`);
  }
  operations.forEach((operation, index) => {
    if (!nested.names.includes(operation.tool) && !options.outsideReach) {
      throw refused(
        `operations[${index}]: ${quoted(operation.tool)} is outside what this batch may call, so nothing ran`,
        nested.names.length
          ? `a batch may call ${nested.names.join(', ')}; call other tools directly`
          : 'this server allows the batch no nested tools; call tools directly',
      );
    }
  });

  const budget = options.budgetBytes ?? BATCH_BUDGET_BYTES;
  const report: BatchReport = {
    results: [],
    onError: options.onError,
    succeeded: 0,
    failed: 0,
    stoppedAt: null,
    truncated: false,
    truncatedBytes: 0,
  };
  // Each row's encoded size, kept as rows come: re-encoding the whole report after every row
  // made a batch quadratic in its results.
  const rowBytes: number[] = [];
  for (const [index, operation] of operations.entries()) {
    if (call.signal.aborted) throw new Failure('cancelled', `the batch was cancelled before operations[${index}]`);
    // Progress counts operations finished; the response itself says the last one is done.
    await call.progress(index, operations.length, `operations[${index}]: ${shown(operation.tool)}`);
    const row = nested.names.includes(operation.tool)
      ? toRow(index, operation.tool, await nested.call(operation.tool, operation.arguments ?? {}, index))
      : toRow(index, operation.tool, { content: [{ type: 'text', text: options.outsideReach!(operation.tool) }], isError: true });
    report.results.push(row);
    rowBytes.push(jsonBytes(row));
    if (row.success) report.succeeded++;
    else report.failed++;
    // Enforced after every row, so a huge result gives way and later small ones still fit.
    while (reportBytes(report, rowBytes) > budget) {
      const dropped = dropLastResult(report);
      if (dropped < 0) break;
      rowBytes[dropped] = jsonBytes(report.results[dropped]!);
    }
    if (!row.success && options.onError === 'stop') {
      report.stoppedAt = index;
      break;
    }
  }
  return { ...batchOutcome(report, options.label, reportBytes(report, rowBytes)), rowBytes };
}

/** For the wire cap: the same report with one more result dropped, or undefined when none is left. */
export function shrinkBatchOutcome(outcome: ToolOutcome, label: string): ToolOutcome | undefined {
  const original = outcome.structured as unknown as BatchReport;
  const report: BatchReport = { ...original, results: original.results.map((row) => ({ ...row })) };
  return dropLastResult(report) >= 0 ? batchOutcome(report, label) : undefined;
}

function toRow(index: number, tool: string, result: CallToolResult): BatchRow {
  const content = result.content.flatMap((block) => (block.type === 'text' ? [{ type: 'text' as const, text: block.text }] : []));
  if (result.isError) {
    const error = content.map((block) => block.text).join('\n') || `${tool} failed`;
    return { index, tool, success: false, error, result: { content, structuredContent: null, isError: true }, resultTruncated: false };
  }
  return {
    index,
    tool,
    success: true,
    error: null,
    result: { content, structuredContent: result.structuredContent ?? null, isError: false },
    resultTruncated: false,
  };
}

/**
 * Drops the last row's result still kept, counting its encoded bytes beyond the `null` left in its
 * place. Returns that row's index, or -1 when no result is left to drop.
 */
function dropLastResult(report: BatchReport): number {
  for (let i = report.results.length - 1; i >= 0; i--) {
    const row = report.results[i]!;
    if (row.result === null) continue;
    report.truncatedBytes += Math.max(0, jsonBytes(row.result) - 4);
    row.result = null;
    row.resultTruncated = true;
    report.truncated = true;
    return i;
  }
  return -1;
}

/** The report's encoded size: the rows' sizes and the commas between them, plus the rest of it. */
function reportBytes(report: BatchReport, rowBytes: readonly number[]): number {
  let bytes = jsonBytes({ ...report, results: [] }) + Math.max(0, rowBytes.length - 1);
  for (const size of rowBytes) bytes += size;
  return bytes;
}

/**
 * The text beside the structured report: a summary line, then each row with the text its nested
 * call answered, so a client that shows only text still sees every kept result.
 */
function batchOutcome(report: BatchReport, label: string, structuredBytes?: number): ToolOutcome {
  const dropped = report.results.filter((row) => row.resultTruncated).length;
  const summary =
    `${label}: ${report.succeeded} succeeded, ${report.failed} failed` +
    (report.stoppedAt !== null ? `; stopped after operations[${report.stoppedAt}] failed (onError "stop")` : '') +
    (dropped ? `; ${dropped} nested result(s) dropped to stay under the response limit (${report.truncatedBytes} bytes)` : '') +
    '.';
  const sections = report.results.map((row) => {
    // Caller input (the tool name) and the errors that echo it are shown escaped, never raw.
    const head = `--- operations[${row.index}] ${shown(row.tool)}: `;
    if (row.result === null) return `${head}${row.success ? 'succeeded' : 'failed'}; result dropped for size`;
    if (!row.success) return `${head}failed\n${withoutControls(row.error ?? '')}`;
    return `${head}ok\n${row.result.content.map((block) => block.text).join('\n')}`;
  });
  const text = [summary, ...sections].join('\n');
  return { structured: report as unknown as Record<string, unknown>, text, ...(structuredBytes !== undefined ? { structuredBytes } : {}) };
}

/** The UTF-8 size of a value's JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}
