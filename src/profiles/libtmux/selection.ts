/**
 * Which tools this process serves: toolsets first (LIBTMUX_TOOLSETS), then exact names added
 * (LIBTMUX_TOOLS), then exclusions (LIBTMUX_EXCLUDE_TOOLS), which also narrow what a batch may call.
 * Filtering shapes the interface; it is not an authorization boundary.
 */
import { ConfigError } from '../../config.js';
import type { LibtmuxTool, Toolset } from './declare.js';

export const TOOLSETS: readonly Toolset[] = ['inspect', 'manage', 'execute', 'teardown'];

export interface SelectionInput {
  readonly toolsets?: readonly string[];
  readonly tools?: readonly string[];
  readonly excludeTools?: readonly string[];
  /** True when no tmux server ran on the socket at start-up, so any server there is one we launch. */
  readonly launchesDaemon: boolean;
}

export interface Selection {
  readonly toolsets: readonly Toolset[];
  readonly names: ReadonlySet<string>;
  readonly excluded: ReadonlySet<string>;
}

export function selectTools(all: readonly LibtmuxTool[], input: SelectionInput): Selection {
  const known = new Set(all.map((tool) => tool.name));
  for (const name of [...(input.tools ?? []), ...(input.excludeTools ?? [])]) {
    if (!known.has(name)) throw new ConfigError(`unknown tool "${name}" in LIBTMUX_TOOLS / LIBTMUX_EXCLUDE_TOOLS`);
  }
  for (const set of input.toolsets ?? []) {
    if (!(TOOLSETS as readonly string[]).includes(set)) {
      throw new ConfigError(`unknown toolset "${set}" in LIBTMUX_TOOLSETS; choose from ${TOOLSETS.join(', ')}`);
    }
  }
  const toolsets = (input.toolsets as Toolset[] | undefined) ??
    (input.launchesDaemon ? TOOLSETS : TOOLSETS.filter((set) => set !== 'teardown'));
  const excluded = new Set(input.excludeTools ?? []);
  const names = new Set<string>();
  for (const tool of all) if (toolsets.includes(tool.spec.toolset)) names.add(tool.name);
  for (const name of input.tools ?? []) names.add(name);
  for (const name of excluded) names.delete(name);
  return { toolsets, names, excluded };
}
