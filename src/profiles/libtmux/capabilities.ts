/**
 * The tmux://capabilities resource: what this process exposes (the effective tools and their
 * capability rows, identical to the `_meta` rows in tools/list), how they were selected, which
 * tmux socket it drives and where its boundaries are. Read it before trusting a tool list to
 * mean anything: filtering shapes the interface, it does not authorize.
 */
import type { Config } from '../../config.js';
import { type Engine, shellQuote, socketDirectory } from '../../core/index.js';
import type { ResourceDeclaration } from '../../mcp/surface/resources.js';
import { CAPABILITY_KEY, capabilityRow, type LibtmuxTool } from './declare.js';
import type { Selection } from './selection.js';

const CAPABILITIES_URI = 'tmux://capabilities';

export interface CapabilitiesInput {
  readonly config: Config;
  readonly engine: Engine;
  readonly tools: readonly LibtmuxTool[];
  readonly selection: Selection;
  /** No tmux server ran on the socket at start-up (known once the first answers are out). */
  readonly launchesDaemon: boolean | Promise<boolean>;
}

export function capabilitiesResource(input: CapabilitiesInput): ResourceDeclaration {
  return {
    uri: CAPABILITIES_URI,
    name: 'capabilities',
    title: 'Effective tmux MCP capabilities',
    description:
      'The tool surface this process exposes (names, capability rows, how they were selected), the tmux socket it ' +
      'drives and how that was chosen, and its boundaries. JSON.',
    mimeType: 'application/json',
    async read() {
      return sortedJson(await capabilitiesReport(input));
    },
  };
}

async function capabilitiesReport({
  config,
  engine,
  tools,
  selection,
  launchesDaemon,
}: CapabilitiesInput): Promise<Record<string, unknown>> {
  const identity = await engine.identity().catch(() => undefined);
  const selector = config.socketPath !== undefined ? `-S ${config.socketPath}` : `-L ${config.socketName}`;
  // Decided at start-up: a server we found is "existing"; one that appeared since came from us.
  const launched = await launchesDaemon;
  const serverState = launched ? (identity ? 'created' : 'not-started') : identity ? 'existing' : 'gone';
  const configurationProvenance = launched ? 'launched-by-this-process' : 'pre-existing';
  const socketPath = identity?.socketPath ?? config.socketPath ?? `${socketDirectory()}/${config.socketName ?? 'default'}`;
  return {
    schemaVersion: 1,
    frozen: true,
    hostCommandTools: 0,
    toolFilteringBoundary: 'interface-shaping-not-authorization',
    executionAuthority: 'tmux-user',
    operatingSystemBoundary: 'none',
    boundary: { oneSocketPerProcess: true, perCallSocketSelection: false, hostCommandExecution: false, dynamicResources: false },
    toolCount: tools.length,
    effectiveTools: tools.map((tool) => tool.name),
    tools: tools.map((tool) => tool._meta?.[CAPABILITY_KEY] ?? capabilityRow(tool.spec, tool.inputSchema)),
    selection: {
      toolsets: [...selection.toolsets].sort(),
      toolsetsSource: selection.explicitToolsets
        ? 'LIBTMUX_TOOLSETS'
        : selection.toolsets.includes('teardown')
          ? 'default-with-teardown'
          : 'default',
      includedTools: [...selection.included].sort(),
      excludedTools: [...selection.excluded].sort(),
    },
    socket: {
      selector,
      selectionProvenance: config.socketSource,
      serverState,
      configurationProvenance,
      namespaceBoundary: 'tmux-objects-only',
    },
    // What a person bounded (docs/oversight.md); present only when set.
    ...(config.readOnly || config.allowSessions.length
      ? { oversight: { readOnly: config.readOnly, allowedSessions: config.allowSessions.map((pattern) => pattern.text) } }
      : {}),
    // Other machines served beside the local tmux (README "Hosts"); present only when configured.
    ...(config.hosts.length
      ? {
          hosts: config.hosts.map((host) => ({
            name: host.name,
            destination: host.destination,
            socketSelector: host.socketPath !== undefined ? `-S ${host.socketPath}` : `-L ${host.socketName}`,
            transport: 'ssh control-mode',
            addressing: `${host.name}:%N, ${host.name}:@N, ${host.name}:$N, ${host.name}:SESSION-NAME, or a ref from that host`,
          })),
        }
      : {}),
    connection: {
      socketSelector: selector,
      socketProvenance: config.socketSource,
      resolvedSocketPath: socketPath,
      serverState,
      configurationProvenance,
      attachCommand: `${shellWord(config.tmuxBin)} -N -S ${shellWord(socketPath)} attach`,
      transport: 'control-mode',
      tmuxVersion: identity?.version ?? null,
      serverPid: identity?.pid ?? null,
    },
  };
}

/** A word for a shell command line, quoted only when it needs to be, so the usual command reads plainly. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(value) ? value : shellQuote(value);
}

/** Pretty JSON with keys sorted at every level, so the report reads and diffs the same each time. */
function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(sort(value), null, 2);
}
