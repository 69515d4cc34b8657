/**
 * How a python tool is declared: name, title, our description, its toolset (carried in
 * `_meta.fastmcp.tags`, with `self-bounded` for tools that wait under their own ceiling), the
 * contract's schemas, and a handler that gets the engine of the tmux server the call names
 * (`socket_name`, else the configured one). Every tool carries the contract's one set of
 * conservative annotations. Unknown arguments are named, as that server names them.
 */
import { type Engine, EngineRegistry, invalidArgument } from '../../core/index.js';
import type { JsonSchema, Static } from '../../mcp/tools/schema.js';
import type { Toolset } from '../../mcp/tools/selection.js';
import {
  declaredTargets,
  type NestedCaller,
  type ToolCall,
  type ToolDeclaration,
  type ToolOutcome,
  type ToolSpec,
} from '../../mcp/tools/tool.js';
import type { PythonCall, PythonContext } from './context.js';

const ANNOTATIONS = { destructiveHint: true, idempotentHint: false, openWorldHint: true, readOnlyHint: false } as const;

/** A python tool: the common spec with a title always, its toolset, and how the contract tags it. */
export interface PythonToolSpec<In extends JsonSchema>
  extends ToolSpec<In, PythonCall & { readonly nested?: NestedCaller; readonly approveItem?: ToolCall<PythonContext>['approveItem'] }> {
  readonly title: string;
  readonly toolset: Toolset;
  /** Waits under its own ceiling (tagged `self-bounded`; never nested in a batch). */
  readonly selfBounded?: boolean;
  /** Marked for clients to load up front (`anthropic/alwaysLoad`). */
  readonly alwaysLoad?: boolean;
  /** Answers text only, with no structured content (capture_pane). */
  readonly textOnly?: boolean;
}

export type PythonTool = ToolDeclaration<PythonContext> & {
  readonly toolset: Toolset;
  readonly selfBounded: boolean;
  readonly textOnly: boolean;
};

/** The argument every python tool takes: which tmux server (a socket name, or `HOST:`). */
export type Socket = { socket_name?: string | null };

export function pythonTool<In extends JsonSchema>(spec: PythonToolSpec<In>): PythonTool {
  const known = new Set(Object.keys((spec.input.properties ?? {}) as object));
  const tags = [spec.toolset, ...(spec.selfBounded ? ['self-bounded'] : [])].sort();
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: spec.input,
    // Unknown arguments get their own message (below), so the schema checked first lets them through.
    argumentSchema: { ...spec.input, additionalProperties: true },
    ...(spec.output ? { outputSchema: spec.output } : {}),
    annotations: { ...ANNOTATIONS },
    _meta: { ...(spec.alwaysLoad ? { 'anthropic/alwaysLoad': true } : {}), fastmcp: { tags } },
    group: spec.toolset,
    ...declaredTargets(spec, spec.input),
    toolset: spec.toolset,
    selfBounded: spec.selfBounded ?? false,
    textOnly: spec.textOnly ?? false,
    ...(spec.typed ? { typed: spec.typed as PythonTool['typed'] } : {}),
    ...(spec.items ? { items: spec.items as PythonTool['items'] } : {}),
    // Hot path (every python call): checks arguments without allocating and hands back the tool's own promise.
    handler(args: Static<In> & Socket, call) {
      try {
        for (const key in args) if (!known.has(key)) throw unexpectedArguments(spec.name, args, known);
        const run = (engine: Engine) =>
          spec.handler(args, {
            ctx: call.ctx,
            engine,
            signal: call.signal,
            progress: call.progress,
            nested: call.nested,
            approveItem: call.approveItem,
          });
        return call.ctx.registry.use(EngineRegistry.named(args.socket_name), run);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}

function unexpectedArguments(tool: string, args: object, known: ReadonlySet<string>) {
  const names = Object.keys(args)
    .filter((key) => !known.has(key))
    .map((key) => JSON.stringify(key.slice(0, 64)))
    .join(', ');
  return invalidArgument(`${tool} got unexpected argument(s): ${names}`, `Remove or correct the unrecognized argument(s): ${names}.`);
}

// ---- results ------------------------------------------------------------------------------------

/** A string result, wrapped as `{result}` (the text is the string itself). */
export const textResult = (text: string): ToolOutcome => ({ structured: { result: text }, text });

/** A list result, wrapped as `{result}`; the JSON of the items is the text, and measures the structured value too. */
export function listResult(items: readonly unknown[]): ToolOutcome {
  const text = JSON.stringify(items);
  return { structured: { result: items }, text, structuredBytes: Buffer.byteLength(text, 'utf8') + WRAPPER_BYTES };
}

/** `{"result":` and `}` around a wrapped value's JSON. */
const WRAPPER_BYTES = JSON.stringify({ result: null }).length - 'null'.length;

/** A model result: the object itself, its JSON as text. */
export const modelResult = (value: Record<string, unknown>): ToolOutcome => ({ structured: value });
