/**
 * Which tools this process serves: toolsets first (LIBTMUX_TOOLSETS), then exact names added
 * (LIBTMUX_TOOLS), then exclusions (LIBTMUX_EXCLUDE_TOOLS), which also narrow what a batch may call.
 * Filtering shapes the interface; it is not an authorization boundary.
 */
import { ConfigError } from '../../config.js';
import { nearest } from '../../mcp/nearest.js';
import type { LibtmuxTool, Toolset } from './declare.js';

export const TOOLSETS: readonly Toolset[] = ['inspect', 'manage', 'execute', 'teardown'];

export interface SelectionInput {
  /** Undefined: the default; []: no toolsets (only LIBTMUX_TOOLS). */
  readonly toolsets?: readonly string[];
  readonly tools?: readonly string[];
  readonly excludeTools?: readonly string[];
  /**
   * True on the private default socket (neither LIBTMUX_SOCKET_NAME nor LIBTMUX_SOCKET_PATH set):
   * everything there is this server's, so teardown is on by default. On a socket the user named it
   * is opt-in, whatever an earlier run left running there.
   */
  readonly privateSocket: boolean;
}

export interface Selection {
  /** Toolsets in force, in TOOLSETS order. */
  readonly toolsets: readonly Toolset[];
  /** True when LIBTMUX_TOOLSETS chose them; false for the default. */
  readonly explicitToolsets: boolean;
  /** Names LIBTMUX_TOOLS added. */
  readonly included: ReadonlySet<string>;
  /** Names LIBTMUX_EXCLUDE_TOOLS removed, from the list and from every batch's reach. */
  readonly excluded: ReadonlySet<string>;
  /** The tools listed and callable. */
  readonly names: ReadonlySet<string>;
}

export function selectTools(all: readonly LibtmuxTool[], input: SelectionInput): Selection {
  const known = all.map((tool) => tool.name);
  checkNames('LIBTMUX_TOOLS', input.tools ?? [], known);
  checkNames('LIBTMUX_EXCLUDE_TOOLS', input.excludeTools ?? [], known);
  for (const set of input.toolsets ?? []) {
    if (set === '') throw new ConfigError('LIBTMUX_TOOLSETS has an empty entry; separate toolsets with single commas');
    if (!(TOOLSETS as readonly string[]).includes(set)) {
      throw new ConfigError(`LIBTMUX_TOOLSETS: unknown toolset "${set}"; choose from ${TOOLSETS.join(', ')}`);
    }
  }
  const chosen = input.toolsets ?? (input.privateSocket ? TOOLSETS : TOOLSETS.filter((set) => set !== 'teardown'));
  const toolsets = TOOLSETS.filter((set) => chosen.includes(set));
  const included = new Set(input.tools ?? []);
  const excluded = new Set(input.excludeTools ?? []);
  const names = new Set<string>();
  for (const tool of all) if (toolsets.includes(tool.spec.toolset)) names.add(tool.name);
  for (const name of included) names.add(name);
  for (const name of excluded) names.delete(name);
  return { toolsets, explicitToolsets: input.toolsets !== undefined, included, excluded, names };
}

/** Why `name` is not callable under `selection`, phrased as what to change. */
export function whyUnavailable(all: readonly LibtmuxTool[], selection: Selection, name: string): string {
  const tool = all.find((t) => t.name === name);
  if (!tool) return `unknown tool "${name}"${suggestion(name, all.map((t) => t.name))}; call tools/list for the tools this server offers`;
  if (selection.excluded.has(name)) return `tool "${name}" is excluded on this server by LIBTMUX_EXCLUDE_TOOLS`;
  return (
    `tool "${name}" is not enabled on this server: it is in the "${tool.spec.toolset}" toolset, and the toolsets in force are ` +
    `${selection.toolsets.join(', ') || 'none'}; add it with LIBTMUX_TOOLSETS or LIBTMUX_TOOLS`
  );
}

function checkNames(variable: string, names: readonly string[], known: readonly string[]): void {
  for (const name of names) {
    if (name === '') throw new ConfigError(`${variable} has an empty entry; separate tool names with single commas`);
    if (!known.includes(name)) {
      throw new ConfigError(`${variable}: unknown tool "${name}"${suggestion(name, known)}; known tools: ${[...known].sort().join(', ')}`);
    }
  }
}

/** ` (did you mean "x"?)` for a near miss, else nothing. */
function suggestion(name: string, known: readonly string[]): string {
  const best = nearest(name, known);
  return best ? ` (did you mean "${best}"?)` : '';
}
