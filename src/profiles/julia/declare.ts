/**
 * How a julia tool is declared: its schemas (some depend on the configuration, as the contract's
 * schemaRules say), whether it changes anything, a `plan` that checks arguments and policy without
 * touching tmux, and a `run` that acts. Every item of run_operations is planned before any runs.
 */
import type { JsonSchema } from '../../mcp/tools/schema.js';
import type { ToolAnnotations, ToolCall } from '../../mcp/tools/tool.js';
import type { Deadline, JuliaApp } from './app.js';
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
}

export interface JuliaTool<Args = any, Plan = any> {
  readonly name: string;
  readonly description: string;
  /** Changes something in tmux or a program (every tool but list_panes, capture_pane and wait_for_text). */
  readonly mutating: boolean;
  readonly annotations: ToolAnnotations;
  /** The advertised input schema for this configuration. */
  input(settings: SchemaSettings): JsonSchema;
  readonly output: JsonSchema;
  /** Checks arguments and policy; no tmux I/O, so a refusal here has no effects. */
  plan(args: Args, app: JuliaApp): Plan;
  run(plan: Plan, call: RunCall): Promise<Payload>;
}

export const juliaTool = <Args, Plan>(tool: JuliaTool<Args, Plan>): JuliaTool<Args, Plan> => tool;

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
