/**
 * The julia profile: the family's Julia server surface. Targets are `{paneId, generation}`, results
 * the payload itself (text = its compact JSON), failures the `{code, message, effects, retryable}`
 * envelope. The tools in force and their order come from --tool; schemas follow the configuration.
 */
import { ConfigError, type JuliaOptions } from '../../config.js';
import { type Engine, type EngineRegistry, generationOf, listPanes } from '../../core/index.js';
import type { Profile } from '../../mcp/profile.js';
import { readOnlyRefusal } from '../../mcp/tools/selection.js';
import { VERSION } from '../../version.js';
import { JuliaApp, type JuliaSettings, type PaneTarget } from './app.js';
import { juliaDeclaration, type SchemaSettings } from './declare.js';
import { envelope, resultLimitPayload, toResult, type Payload } from './envelope.js';
import { RUN_OPERATIONS, runOperations } from './tools/batch.js';
import { CATALOG } from './tools/index.js';
import { closeOwned } from './tools/lifecycle.js';

export const TOOL_NAMES = [...CATALOG.map((tool) => tool.name), RUN_OPERATIONS];
const DEFAULT_TOOLS = ['list_panes', 'capture_pane', 'send_keys'];
/** The tools that only read: all --read-only leaves, whatever --tool says. */
const READ_TOOLS = ['list_panes', 'capture_pane', 'wait_for_text'];

const MAX_CAPTURE_BYTES = 65536;
/** The contract's outbound message limit: a result up to the result limit, written twice (payload and text), fits. */
const MAX_OUTBOUND_BYTES = 8 * 1024 * 1024;

export interface JuliaProfile extends Profile<JuliaApp> {
  /** Kills the sessions this process created (at shutdown); borrowed ones are never touched. */
  close(): Promise<void>;
}

export async function createJuliaProfile(
  options: JuliaOptions,
  registry: EngineRegistry,
  oversight: { readOnly?: boolean } = {},
): Promise<JuliaProfile> {
  const engine = registry.defaultEngine;
  const chosen = options.tools ?? DEFAULT_TOOLS;
  const unknown = chosen.filter((name) => !TOOL_NAMES.includes(name));
  // Read-only: the read tools, in the order --tool gave them, then the rest of them.
  const names = oversight.readOnly
    ? [...chosen.filter((name) => READ_TOOLS.includes(name)), ...READ_TOOLS.filter((name) => !chosen.includes(name))]
    : chosen;
  if (unknown.length > 0)
    throw new ConfigError(`--tool ${unknown.join(', ')}: not a tool of the julia profile; choose from ${TOOL_NAMES.join(', ')}`);
  if (names.length === 1 && names[0] === RUN_OPERATIONS)
    throw new ConfigError('--tool run_operations cannot be enabled alone: it runs the other enabled tools');

  const settings: JuliaSettings = {
    ...(options.callerPane !== undefined ? { caller: (await resolvePanes(engine, [options.callerPane]))[0] } : {}),
    allowPanes: await resolvePanes(engine, options.allowPanes),
    allowCreate: options.allowCreate,
    timeoutMs: options.timeoutMs,
    maxCaptureBytes: MAX_CAPTURE_BYTES,
    maxResultBytes: options.maxResultBytes,
  };
  const app = new JuliaApp(registry, settings);
  // --allow-pane is a case of the scope rule: core's listings and command checks admit only these panes.
  if (app.allowListActive) engine.scope.setPaneRule((host, paneId, sessionIds) => app.allowsPaneId(host, paneId, sessionIds));
  const schemaSettings: SchemaSettings = { callerConfigured: settings.caller !== undefined, maxCaptureBytes: MAX_CAPTURE_BYTES };

  const itemTools = names.filter((name) => name !== RUN_OPERATIONS).map((name) => CATALOG.find((tool) => tool.name === name)!);
  const batch = runOperations(itemTools, schemaSettings);
  const enabled = names.map((name) => (name === RUN_OPERATIONS ? batch : CATALOG.find((tool) => tool.name === name)!));
  const mutating = new Map(enabled.map((tool) => [tool.name, tool.mutating]));
  const isMutating = (name: string) => mutating.get(name) ?? true;
  // Any payload, an error's too (its message may quote tmux at length), is held to the result limit.
  const limited = (payload: Payload, tool: string, json = JSON.stringify(payload)) =>
    Buffer.byteLength(json, 'utf8') <= settings.maxResultBytes
      ? toResult(payload, json)
      : toResult(resultLimitPayload(payload, tool, isMutating));

  return {
    name: 'julia',
    serverInfo: { name: 'libtmux', version: VERSION },
    tools: enabled.map((tool) => juliaDeclaration(tool, app, schemaSettings)),
    context: app,
    maxResponseBytes: MAX_OUTBOUND_BYTES,
    capacity: { methods: new Set(['tools/call']), workers: options.workers, capacity: options.capacity },
    jsonRpcRules: {
      methods: new Set(['server/discover', 'initialize', 'tools/list', 'ping', 'tools/call']),
      legacyVersion: '2025-11-25',
      modernVersion: '2026-07-28',
      limits: { maxBytes: 2 * 1024 * 1024, maxDepth: 64, maxTokens: 16384, message: 'Invalid or over-limit JSON input' },
    },
    // A tool of this profile left out by --read-only is refused as such, not as unknown.
    describeUnavailable: (name) =>
      oversight.readOnly && TOOL_NAMES.includes(name) && !names.includes(name) ? readOnlyRefusal(name) : undefined,
    renderError: (error, tool) => limited({ error: envelope(error, isMutating(tool)) }, tool),
    renderSuccess: (outcome, tool) => ({ result: limited(outcome.structured as Payload, tool, outcome.text) }),
    closing: () => app.close(),
    singleContentBlock: true,
    close: () => closeOwned(app),
  };
}

/** Pane ids given at start-up, bound to the generation of the server running now; a missing one stops start-up. */
async function resolvePanes(engine: Engine, paneIds: readonly string[]): Promise<PaneTarget[]> {
  if (paneIds.length === 0) return [];
  const panes = await listPanes(engine);
  return paneIds.map((paneId) => {
    const pane = panes.find((p) => p.id === paneId);
    if (!pane) throw new ConfigError(`configured pane ${paneId} does not exist`);
    return { paneId, generation: generationOf(pane.incarnation) };
  });
}
