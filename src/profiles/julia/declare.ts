/**
 * How a julia tool is declared: its schemas (some depend on the configuration, as the contract's
 * schemaRules say), whether it changes anything, a `plan` that checks arguments and policy without
 * touching tmux, and a `run` that acts. Every item of run_operations is planned before any runs.
 */
import type { JsonSchema, Static } from '../../mcp/tools/schema.js';
import {
  declaredTargets,
  type ItemsOf,
  type ToolAnnotations,
  type ToolCall,
  type ToolDeclaration,
  type ToolFacts,
  type TypedBy,
} from '../../mcp/tools/tool.js';
import { Deadline, type JuliaApp } from './app.js';
import type { Payload } from './envelope.js';

/** What the schemas depend on. */
export interface SchemaSettings {
  /** With a caller pane, `target` is optional everywhere. */
  readonly callerConfigured: boolean;
  readonly maxCaptureBytes: number;
}

export interface RunCall {
  readonly app: JuliaApp;
  readonly deadline: Deadline;
  readonly progress: ToolCall<unknown>['progress'];
  /** When calls are audited: run_operations runs each item through it (mcp/tool.ts). */
  readonly auditItem?: ToolCall<unknown>['auditItem'];
  /** When items need a person's approval: run_operations asks before each item's turn (mcp/tool.ts). */
  readonly approveItem?: ToolCall<unknown>['approveItem'];
}

/**
 * A julia tool: the common facts (no title in this contract), an input schema that depends on the
 * configuration, and acting split in two: `plan` checks arguments and policy without touching tmux
 * (so a refusal has no effects, and run_operations plans every item before any runs), `run` acts.
 */
export interface JuliaTool<In extends JsonSchema = any, Plan = any> extends ToolFacts {
  readonly title?: never;
  /** Changes something in tmux or a program (every tool but list_panes, capture_pane and wait_for_text). */
  readonly mutating: boolean;
  readonly annotations: ToolAnnotations;
  /** The advertised input schema for this configuration. */
  input(settings: SchemaSettings): In;
  readonly output: JsonSchema;
  /** Checks arguments and policy; no tmux I/O, so a refusal here has no effects. */
  plan(args: Static<In>, app: JuliaApp): Plan;
  run(plan: Plan, call: RunCall): Promise<Payload>;
  /** Checked before `plan` in place of the input schema (a batch's envelope); default: `argumentSchema(input)`. */
  readonly argumentSchema?: JsonSchema;
  /** Races its own deadline (run_operations, per operation) rather than having the whole run raced. */
  readonly ownsDeadline?: boolean;
  /** What a call types or runs in a pane, as tmux would receive it (--approve text:). */
  readonly typed?: TypedBy<Static<In>, JuliaApp>;
  /** A batch's items, each approved on its own (--approve). */
  readonly items?: ItemsOf<Static<In>>;
}

export const juliaTool = <In extends JsonSchema, Plan>(tool: JuliaTool<In, Plan>): JuliaTool<In, Plan> => tool;

/** One tool as the MCP layer serves it: plan, then run under the call's deadline, counted while it runs. */
export function juliaDeclaration(tool: JuliaTool, app: JuliaApp, settings: SchemaSettings): ToolDeclaration<JuliaApp> {
  const input = tool.input(settings);
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: input,
    argumentSchema: tool.argumentSchema ?? argumentSchema(input),
    outputSchema: tool.output,
    annotations: tool.annotations,
    group: 'julia',
    ...declaredTargets(tool, input),
    ...(tool.typed ? { typed: tool.typed } : {}),
    ...(tool.items ? { items: tool.items } : {}),
    handler: (args, call) =>
      app.counted(async () => {
        const plan = tool.plan(args, app);
        const deadline = new Deadline(app.settings.timeoutMs, call.signal, app.closing);
        try {
          const work = tool.run(plan, {
            app,
            deadline,
            progress: call.progress,
            ...(call.auditItem ? { auditItem: call.auditItem } : {}),
            ...(call.approveItem ? { approveItem: call.approveItem } : {}),
          });
          const payload: Payload = await (tool.ownsDeadline ? work : deadline.race(work));
          return { structured: payload, text: JSON.stringify(payload) };
        } finally {
          deadline.dispose();
        }
      }),
  };
}

/** The schema arguments are held to before `plan`: a pane tool's `target` is left to `plan`, which says target_required. */
export function argumentSchema(input: JsonSchema): JsonSchema {
  const required = input.required as readonly string[] | undefined;
  if (!required?.includes('target')) return input;
  return { ...input, required: required.filter((key) => key !== 'target') };
}

/**
 * `required` as the contract lists it: `target` first when it is required at all. Typed as `rest`
 * alone: `plan` gets `target` possibly absent either way (argumentSchema leaves it to plan).
 */
export function requiredWithTarget<K extends string>(settings: SchemaSettings, rest: readonly K[]): K[] {
  return (settings.callerConfigured ? [...rest] : ['target', ...rest]) as K[];
}

const hints = (readOnly: boolean, destructive: boolean, idempotent: boolean): ToolAnnotations => ({
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: true,
  readOnlyHint: readOnly,
});
export const READ = hints(true, false, true);
export const WAIT = hints(true, false, false);
export const CHANGE = hints(false, true, false);
export const CREATE = hints(false, false, false);
export const RESIZE = hints(false, true, true);
