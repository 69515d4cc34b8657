/**
 * Which libtmux tools this process serves (see mcp/selection.ts): the default toolsets add
 * teardown when no tmux server ran on the socket at start-up, so any server there is one we launch.
 */
import { selectGroups, whyUnavailable as whyNot, type Selection as GroupSelection } from '../../mcp/selection.js';
import type { LibtmuxTool, Toolset } from './declare.js';

export const TOOLSETS: readonly Toolset[] = ['inspect', 'manage', 'execute', 'teardown'];

export interface SelectionInput {
  /** Undefined: the default; []: no toolsets (only LIBTMUX_TOOLS). */
  readonly toolsets?: readonly string[];
  readonly tools?: readonly string[];
  readonly excludeTools?: readonly string[];
  /** True when no tmux server ran on the socket at start-up, so any server there is one we launch. */
  readonly launchesDaemon: boolean;
}

export type Selection = GroupSelection & { readonly toolsets: readonly Toolset[] };

export function selectTools(all: readonly LibtmuxTool[], input: SelectionInput): Selection {
  return selectGroups(all, {
    toolsets: TOOLSETS,
    defaultToolsets: input.launchesDaemon ? TOOLSETS : TOOLSETS.filter((set) => set !== 'teardown'),
    chosen: input.toolsets,
    tools: input.tools,
    excludeTools: input.excludeTools,
  }) as Selection;
}

/** Why `name` is not callable under `selection`, phrased as what to change. */
export function whyUnavailable(all: readonly LibtmuxTool[], selection: Selection, name: string): string {
  return whyNot(all, selection, name);
}
