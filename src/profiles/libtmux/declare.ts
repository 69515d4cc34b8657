/**
 * How a libtmux tool is declared. The contract gives every tool the same conservative annotations
 * and a `_meta` capability row that repeats the schemas; both are derived here from the few facts
 * each tool states, so a tool file holds nothing twice.
 */
import type { JsonSchema } from '../../mcp/tools/schema.js';
import type { Toolset } from '../../mcp/tools/selection.js';
import { declaredTargets, type ToolCall, type ToolDeclaration, type ToolSpec } from '../../mcp/tools/tool.js';
import type { LibtmuxContext } from './context.js';

type ProcessReach = 'none' | 'configured-process' | 'pane-input' | 'pane-command';
type TmuxEffect = 'observe' | 'change' | 'delete';
export type OutputClass = 'tmux-metadata' | 'terminal-content' | 'process-environment' | 'configured-command';
type Literalization = 'double-hash-once' | 'validated-variable-name';

export const CAPABILITY_KEY = 'com.git-pull.libtmux-mcp/capability';

/** Every tool of this contract carries these hints, the published server's conservative default. */
const ANNOTATIONS = { destructiveHint: true, idempotentHint: false, openWorldHint: true, readOnlyHint: false } as const;

// The capability facts several tools share, named for what such a tool does; a tool spreads one into its spec.
/** Reads what tmux holds about its objects (names, ids, sizes), not what panes show. */
export const READS_METADATA = { toolset: 'inspect', tmuxEffects: ['observe'], outputClasses: ['tmux-metadata'] } as const;
/** Reads what panes show, and the tmux facts around it. */
export const READS_CONTENT = {
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['terminal-content', 'tmux-metadata'],
} as const;
/** Changes an object it looks up first (rename, move, resize, select). */
export const CHANGES = { toolset: 'manage', tmuxEffects: ['change', 'observe'], outputClasses: ['tmux-metadata'] } as const;
/** Closes an object it looks up first, ending the programs in it. */
export const DELETES = { toolset: 'teardown', tmuxEffects: ['delete', 'observe'], outputClasses: ['tmux-metadata'] } as const;
/** Types into a pane: the program there reads it as input. */
export const TYPES_INTO = {
  toolset: 'execute',
  processReach: 'pane-input',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
} as const;
/** Creates a pane and starts the configured shell or command in it. */
export const STARTS_PROCESS = {
  toolset: 'execute',
  processReach: 'configured-process',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
} as const;

/** A libtmux tool: the common spec with a title and output schema always, and the facts of its capability row. */
export interface LibtmuxToolSpec<In extends JsonSchema> extends ToolSpec<In, ToolCall<LibtmuxContext>> {
  readonly title: string;
  readonly output: JsonSchema;
  readonly toolset: Toolset;
  readonly processReach?: ProcessReach;
  readonly tmuxEffects: readonly TmuxEffect[];
  readonly outputClasses: readonly OutputClass[];
  readonly mayExposeSecrets?: boolean;
  readonly mayReturnUntrustedContent?: boolean;
  readonly inputLiteralization?: Readonly<Record<string, Literalization>>;
  readonly nestedAuthority?: readonly string[];
  readonly amplifiesFutureInput?: boolean;
}

export type LibtmuxTool = ToolDeclaration<LibtmuxContext> & { readonly spec: LibtmuxToolSpec<any> };

export function libtmuxTool<In extends JsonSchema>(spec: LibtmuxToolSpec<In>): LibtmuxTool {
  return {
    spec,
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: spec.input,
    outputSchema: spec.output,
    annotations: { ...ANNOTATIONS, title: spec.title },
    _meta: { [CAPABILITY_KEY]: capabilityRow(spec, spec.input) },
    group: spec.toolset,
    ...declaredTargets(spec, spec.input),
    handler: spec.handler as LibtmuxTool['handler'],
    ...(spec.typed ? { typed: spec.typed as LibtmuxTool['typed'] } : {}),
    ...(spec.items ? { items: spec.items as LibtmuxTool['items'] } : {}),
  };
}

/** The `_meta` capability row; `input` may differ from the spec's when selection narrows a batch. */
export function capabilityRow(
  spec: LibtmuxToolSpec<any>,
  input: JsonSchema,
  nestedAuthority = spec.nestedAuthority ?? [],
): Record<string, unknown> {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    toolset: spec.toolset,
    processReach: spec.processReach ?? 'none',
    tmuxEffects: [...spec.tmuxEffects],
    outputClasses: [...spec.outputClasses],
    mayExposeSecrets: spec.mayExposeSecrets ?? true,
    mayReturnUntrustedContent: spec.mayReturnUntrustedContent ?? true,
    annotations: { ...ANNOTATIONS },
    inputSchema: input,
    outputSchema: spec.output,
    inputLiteralization: { ...(spec.inputLiteralization ?? {}) },
    nestedAuthority: [...nestedAuthority],
    amplifiesFutureInput: spec.amplifiesFutureInput ?? false,
  };
}
