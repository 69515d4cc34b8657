/**
 * How a libtmux tool is declared. The contract gives every tool the same conservative annotations
 * and a `_meta` capability row that repeats the schemas; both are derived here from the few facts
 * each tool states, so a tool file holds nothing twice.
 */
import type { JsonSchema } from '../../mcp/tools/schema.js';
import type { Toolset } from '../../mcp/tools/selection.js';
import type { ToolCall, ToolDeclaration, ToolSpec } from '../../mcp/tools/tool.js';
import type { LibtmuxContext } from './context.js';

type ProcessReach = 'none' | 'configured-process' | 'pane-input' | 'pane-command';
type TmuxEffect = 'observe' | 'change' | 'delete';
export type OutputClass = 'tmux-metadata' | 'terminal-content' | 'process-environment' | 'configured-command';
type Literalization = 'double-hash-once' | 'validated-variable-name';

export const CAPABILITY_KEY = 'com.git-pull.libtmux-mcp/capability';

/** Every tool of this contract carries these hints, the published server's conservative default. */
const ANNOTATIONS = { destructiveHint: true, idempotentHint: false, openWorldHint: true, readOnlyHint: false } as const;

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
    handler: spec.handler as LibtmuxTool['handler'],
  };
}

/** The `_meta` capability row; `input` may differ from the spec's when selection narrows a batch. */
export function capabilityRow(spec: LibtmuxToolSpec<any>, input: JsonSchema, nestedAuthority = spec.nestedAuthority ?? []): Record<string, unknown> {
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
