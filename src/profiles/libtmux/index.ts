/** The libtmux profile: the 45-tool contract shared by the family's ports (schemas of the Swift port). */
import type { Config } from '../../config.js';
import type { Engine } from '../../core/engine.js';
import type { Profile, ResourceDeclaration } from '../../mcp/server.js';
import { VERSION } from '../../version.js';
import { capabilityRow, type LibtmuxTool } from './declare.js';
import type { LibtmuxContext } from './context.js';
import { selectTools, type Selection } from './selection.js';
import { ALL_TOOLS } from './tools/index.js';

export interface LibtmuxProfileOptions {
  readonly config: Config;
  readonly engine: Engine;
  readonly launchesDaemon: boolean;
}

export function createLibtmuxProfile({ config, engine, launchesDaemon }: LibtmuxProfileOptions): Profile<LibtmuxContext> & { selection: Selection } {
  const selection = selectTools(ALL_TOOLS, { ...config, launchesDaemon });
  const tools = ALL_TOOLS.filter((tool) => selection.names.has(tool.name));
  return {
    name: 'libtmux',
    serverInfo: { name: 'libtmux', title: 'tmux', version: VERSION },
    instructions:
      'Work in real terminals through tmux. Find panes with list_sessions / list_panes, read them with capture_pane, ' +
      'type with send_keys, run a command and get its output and exit status with run_shell_command, and wait for ' +
      'output with wait_for_text instead of sleeping. Ids like %3, @1, $0 change when tmux restarts; refs from ' +
      'listings are refused once stale.',
    tools,
    selection,
    context: { engine },
    resources: [capabilitiesResource(config, engine, tools, selection, launchesDaemon)],
  };
}

function capabilitiesResource(
  config: Config,
  engine: Engine,
  tools: readonly LibtmuxTool[],
  selection: Selection,
  launchesDaemon: boolean,
): ResourceDeclaration {
  return {
    uri: 'tmux://capabilities',
    name: 'capabilities',
    title: 'Effective tmux MCP capabilities',
    description: 'What this server exposes and where its boundaries are: effective tools, toolsets, socket and connection.',
    mimeType: 'application/json',
    async read() {
      const identity = await engine.identity().catch(() => undefined);
      return JSON.stringify(
        {
          effectiveTools: tools.map((tool) => tool.name).sort(),
          toolCount: tools.length,
          toolsets: selection.toolsets,
          excludedTools: [...selection.excluded].sort(),
          tools: tools.map((tool) => tool._meta?.['com.git-pull.libtmux-mcp/capability'] ?? capabilityRow(tool.spec, tool.inputSchema)),
          hostCommandTools: 0,
          frozen: true,
          toolFilteringBoundary: 'interface-shaping-not-authorization',
          executionAuthority: 'tmux-user',
          operatingSystemBoundary: 'none',
          boundary: { oneSocketPerProcess: true, perCallSocketSelection: false, hostCommandExecution: false, dynamicResources: false },
          socket: {
            selector: config.socketPath !== undefined ? { path: config.socketPath } : { name: config.socketName },
            selectionProvenance: config.socketSource,
            serverState: identity ? 'running' : 'not-running',
            configurationProvenance: launchesDaemon ? 'launched-by-this-process' : 'pre-existing',
            namespaceBoundary: 'tmux-objects-only',
          },
          connection: {
            transport: 'control-mode',
            fallback: 'spawn',
            serverPid: identity?.pid ?? null,
            version: identity?.version ?? null,
            socketPath: identity?.socketPath ?? null,
          },
        },
        null,
        2,
      );
    },
  };
}
