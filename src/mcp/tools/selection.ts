/**
 * Which tools a process serves, for any profile that sorts its tools into groups (toolsets):
 * toolsets first (LIBTMUX_TOOLSETS, or the profile's default), then exact names added
 * (LIBTMUX_TOOLS), then exclusions (LIBTMUX_EXCLUDE_TOOLS), which win over everything and also
 * narrow what a batch may call. Filtering shapes the interface; it is not an authorization boundary.
 */
import { quoted } from '../../core/index.js';
import { nearest } from './nearest.js';

/** A toolset or tool list that names nothing known; the command line reports it as a usage error (exit 2). */
export class SelectionError extends Error {}

/** The toolsets of the libtmux family's contracts, in listing order; LIBTMUX_TOOLSETS names them. */
export const TOOLSETS = ['inspect', 'manage', 'execute', 'teardown'] as const;
export type Toolset = (typeof TOOLSETS)[number];

export interface Selectable {
  readonly name: string;
  /** The toolset the tool belongs to. */
  readonly group: string;
}

export interface SelectionRequest {
  /** Every toolset the profile has, in listing order. */
  readonly toolsets: readonly string[];
  /** Toolsets in force when LIBTMUX_TOOLSETS is not set. */
  readonly defaultToolsets: readonly string[];
  /** Undefined: the default; []: no toolsets (only LIBTMUX_TOOLS). */
  readonly chosen?: readonly string[];
  readonly tools?: readonly string[];
  readonly excludeTools?: readonly string[];
  /**
   * `--read-only`: only the tools of `readGroup` (default `inspect`), the ones that only read, are
   * listed and callable, whatever the toolsets and LIBTMUX_TOOLS say; exclusions still apply.
   */
  readonly readOnly?: boolean;
  readonly readGroup?: string;
}

/** The toolset whose tools only read: what --read-only leaves. */
export const READ_GROUP = 'inspect';

export interface Selection {
  /** Toolsets in force, in the profile's order. */
  readonly toolsets: readonly string[];
  /** True when LIBTMUX_TOOLSETS chose them; false for the default. */
  readonly explicitToolsets: boolean;
  /** Names LIBTMUX_TOOLS added. */
  readonly included: ReadonlySet<string>;
  /** Names LIBTMUX_EXCLUDE_TOOLS removed, from the list and from every batch's reach. */
  readonly excluded: ReadonlySet<string>;
  /** The tools listed and callable. */
  readonly names: ReadonlySet<string>;
  /** `--read-only` is in force: `names` holds only tools that only read. */
  readonly readOnly: boolean;
  /** The toolset read-only leaves (its tools only read). */
  readonly readGroup: string;
}

export function selectGroups(all: readonly Selectable[], request: SelectionRequest): Selection {
  const known = all.map((tool) => tool.name);
  checkNames('LIBTMUX_TOOLS', request.tools ?? [], known);
  checkNames('LIBTMUX_EXCLUDE_TOOLS', request.excludeTools ?? [], known);
  for (const set of request.chosen ?? []) {
    if (set === '') throw new SelectionError('LIBTMUX_TOOLSETS has an empty entry; separate toolsets with single commas');
    if (!request.toolsets.includes(set)) {
      throw new SelectionError(`LIBTMUX_TOOLSETS: unknown toolset "${set}"; choose from ${request.toolsets.join(', ')}`);
    }
  }
  const chosen = request.chosen ?? request.defaultToolsets;
  const toolsets = request.toolsets.filter((set) => chosen.includes(set));
  const included = new Set(request.tools ?? []);
  const excluded = new Set(request.excludeTools ?? []);
  const names = new Set<string>();
  for (const tool of all) if (toolsets.includes(tool.group)) names.add(tool.name);
  for (const name of included) names.add(name);
  if (request.readOnly) {
    names.clear();
    for (const tool of all) if (tool.group === (request.readGroup ?? READ_GROUP)) names.add(tool.name);
  }
  for (const name of excluded) names.delete(name);
  return {
    toolsets,
    explicitToolsets: request.chosen !== undefined,
    included,
    excluded,
    names,
    readOnly: request.readOnly === true,
    readGroup: request.readGroup ?? READ_GROUP,
  };
}

/** The refusal of a tool that changes something while the server runs read-only, in every profile. */
export function readOnlyRefusal(name: string): string {
  return `tool "${name}" is not available: this server runs read-only (--read-only or TMUX_MCP_READ_ONLY=1), so only tools that only read can be called`;
}

/** Why `name` is not callable under `selection`, phrased as what to change. */
export function whyUnavailable(all: readonly Selectable[], selection: Selection, name: string): string {
  const tool = all.find((t) => t.name === name);
  // The name is the caller's: echoed bounded and escaped.
  if (!tool)
    return `unknown tool ${quoted(name)}${suggestion(
      name,
      all.map((t) => t.name),
    )}; call tools/list for the tools this server offers`;
  if (selection.excluded.has(name)) return `tool "${name}" is excluded on this server by LIBTMUX_EXCLUDE_TOOLS`;
  if (selection.readOnly && !selection.names.has(name)) {
    return readOnlyRefusal(name);
  }
  return (
    `tool "${name}" is not enabled on this server: it is in the "${tool.group}" toolset, and the toolsets in force are ` +
    `${selection.toolsets.join(', ') || 'none'}; add it with LIBTMUX_TOOLSETS or LIBTMUX_TOOLS`
  );
}

/**
 * Why a tool this profile has is not served, and what the person running the server changes to
 * serve it (the agent cannot: selection is fixed at start-up); undefined for a name it does not have.
 */
export function howToEnable(all: readonly Selectable[], selection: Selection, name: string): { message: string; hint: string } | undefined {
  const tool = all.find((t) => t.name === name);
  if (!tool) return undefined;
  if (selection.excluded.has(name)) {
    return {
      message: `tool "${name}" is excluded on this server by LIBTMUX_EXCLUDE_TOOLS`,
      hint: `Whoever runs this server can serve it by taking ${name} out of LIBTMUX_EXCLUDE_TOOLS and restarting the server; until then, do without it.`,
    };
  }
  if (selection.readOnly && !selection.names.has(name)) {
    return {
      message: readOnlyRefusal(name),
      hint: 'Whoever runs this server chose read-only; use the tools that read (tools/list), or ask them to restart it without --read-only.',
    };
  }
  const toolsets = [...selection.toolsets, tool.group].filter((set, i, sets) => sets.indexOf(set) === i);
  return {
    message:
      `tool "${name}" is not enabled on this server: it is in the "${tool.group}" toolset, which is off ` +
      `(the toolsets in force are ${selection.toolsets.join(', ') || 'none'})`,
    hint:
      `Whoever runs this server can turn it on by starting it with LIBTMUX_TOOLSETS=${toolsets.join(',')} in its environment ` +
      `(or LIBTMUX_TOOLS=${name} for this tool alone); until then, do without it.`,
  };
}

/**
 * The banner's account of a selection: how many tools, which toolsets, what was added or removed.
 * Read-only leaves one toolset whatever was chosen (and adds nothing), so it names only that one.
 */
export function selectionSummary(count: number, selection: Selection): string {
  return (
    `${count} tools (${selection.readOnly ? `read-only: toolset ${selection.readGroup}` : `toolsets ${selection.toolsets.join(',') || 'none'}`}` +
    (selection.included.size && !selection.readOnly ? `; added ${[...selection.included].join(',')}` : '') +
    (selection.excluded.size ? `; excluded ${[...selection.excluded].join(',')}` : '') +
    ')'
  );
}

function checkNames(variable: string, names: readonly string[], known: readonly string[]): void {
  for (const name of names) {
    if (name === '') throw new SelectionError(`${variable} has an empty entry; separate tool names with single commas`);
    if (!known.includes(name)) {
      throw new SelectionError(
        `${variable}: unknown tool "${name}"${suggestion(name, known)}; known tools: ${[...known].sort().join(', ')}`,
      );
    }
  }
}

/** ` (did you mean "x"?)` for a near miss, else nothing. */
function suggestion(name: string, known: readonly string[]): string {
  const best = nearest(name, known);
  return best ? ` (did you mean "${best}"?)` : '';
}
