/**
 * Which libtmux tools this process serves (see mcp/selection.ts). On the private default socket
 * everything is this server's, so teardown is on by default; on a socket the user named it is opt-in.
 */
import { selectGroups, TOOLSETS, type Selection as GroupSelection, type Toolset } from '../../mcp/tools/selection.js';
import type { LibtmuxTool } from './declare.js';

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
  /** `--read-only`: only the inspect tools. */
  readonly readOnly?: boolean;
}

export type Selection = GroupSelection & { readonly toolsets: readonly Toolset[] };

export function selectTools(all: readonly LibtmuxTool[], input: SelectionInput): Selection {
  return selectGroups(all, {
    toolsets: TOOLSETS,
    defaultToolsets: input.privateSocket ? TOOLSETS : TOOLSETS.filter((set) => set !== 'teardown'),
    chosen: input.toolsets,
    tools: input.tools,
    excludeTools: input.excludeTools,
    readOnly: input.readOnly === true,
  }) as Selection;
}
