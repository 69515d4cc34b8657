/** The libtmux profile: the 45-tool contract shared by the family's ports (schemas of the Swift port). */
import type { Config } from '../../config.js';
import type { EngineRegistry } from '../../core/index.js';
import type { Profile } from '../../mcp/profile.js';
import { VERSION } from '../../version.js';
import { capabilitiesResource } from './capabilities.js';
import { hostAware } from './hosts.js';
import type { LibtmuxContext } from './context.js';
import type { LibtmuxTool } from './declare.js';
import { READ_GROUP, whyUnavailable } from '../../mcp/tools/selection.js';
import { selectTools, type Selection } from './selection.js';
import { CALL_READ_TOOLS_BATCH, readToolsBatch } from './tools/batch.js';
import { ALL_TOOLS } from './tools/index.js';

export interface LibtmuxProfileOptions {
  readonly config: Config;
  /** The local tmux (its default engine) and any hosts configured beside it. */
  readonly registry: EngineRegistry;
  readonly launchesDaemon: boolean | Promise<boolean>;
}

export type LibtmuxProfile = Profile<LibtmuxContext> & { readonly selection: Selection; readonly tools: readonly LibtmuxTool[] };

export function createLibtmuxProfile({ config, registry, launchesDaemon }: LibtmuxProfileOptions): LibtmuxProfile {
  const engine = registry.defaultEngine;
  const selection = selectTools(ALL_TOOLS, { ...config, privateSocket: config.socketSource === 'default' });
  // Exclusions apply last and reach into batches too; a batch may call any tool that exists and
  // is not excluded, listed or not.
  // Read-only: a batch reaches only the tools that only read, listed or not.
  const callable = ALL_TOOLS.filter((tool) => !selection.excluded.has(tool.name) && (!selection.readOnly || tool.group === READ_GROUP));
  const bound = ALL_TOOLS.map((tool) => (tool.name === CALL_READ_TOOLS_BATCH ? readToolsBatch(callable) : tool));
  const tools = bound.filter((tool) => selection.names.has(tool.name)).map((tool) => hostAware(tool, registry));
  const reach = new Set(tools.flatMap((tool) => tool.nestedAuthority ?? []));
  const nestedOnlyTools = callable
    .filter((tool) => reach.has(tool.name) && !selection.names.has(tool.name))
    .map((tool) => hostAware(tool, registry));
  return {
    name: 'libtmux',
    serverInfo: { name: 'libtmux', title: 'tmux', version: VERSION },
    instructions:
      'Work in real terminals through tmux. Find panes with list_sessions / list_panes, read them with capture_pane, ' +
      'type with send_keys, run a command and get its output and exit status with run_shell_command, and wait for ' +
      'output with wait_for_text instead of sleeping. Several reads at once: call_read_tools_batch. Ids like %3, @1, $0 ' +
      'change when tmux restarts; refs from listings are refused once stale. tmux://capabilities says which tools ' +
      'this server exposes and which tmux socket it drives.',
    tools,
    nestedOnlyTools,
    selection,
    context: { engine },
    describeUnavailable: (name) => whyUnavailable(ALL_TOOLS, selection, name),
    resources: [capabilitiesResource({ config, engine, tools, selection, launchesDaemon })],
  };
}
