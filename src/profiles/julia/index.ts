/**
 * The julia profile: the family's Julia server surface. Targets are `{paneId, generation}`, results
 * the payload itself (text = its compact JSON), failures the `{code, message, effects, retryable}`
 * envelope. The tools in force and their order come from --tool; schemas follow the configuration.
 */
import { ConfigError, type JuliaOptions } from '../../config.js';
import type { Engine } from '../../core/engine.js';
import type { EngineRegistry } from '../../core/servers/registry.js';
import { generationOf } from '../../core/servers/generation.js';
import type { JsonSchema } from '../../mcp/tools/schema.js';
import type { Profile } from '../../mcp/server.js';
import type { ToolDeclaration } from '../../mcp/tools/tool.js';
import { VERSION } from '../../version.js';
import { Deadline, JuliaApp, type JuliaSettings, type PaneTarget } from './app.js';
import { argumentSchema, type JuliaTool, type SchemaSettings } from './declare.js';
import { envelope, resultLimitPayload, toResult, type Payload } from './envelope.js';
import { capturePane } from './tools/capture-pane.js';
import { listPanes } from './tools/list-panes.js';
import { killPane, pasteText, resizePane, sendKeys } from './tools/mutations.js';
import { RUN_OPERATIONS, runOperations } from './tools/run-operations.js';
import { closeOwned, createSession, teardownSession } from './tools/sessions.js';
import { sendKeysAndWait, waitForText } from './tools/waits.js';

/** Every tool but run_operations, which is built over the others in force. */
const CATALOG: readonly JuliaTool[] = [listPanes, capturePane, sendKeys, pasteText, resizePane, killPane, createSession, teardownSession, waitForText, sendKeysAndWait];
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

export async function createJuliaProfile(options: JuliaOptions, registry: EngineRegistry, oversight: { readOnly?: boolean } = {}): Promise<JuliaProfile> {
  const engine = registry.defaultEngine;
  const chosen = options.tools ?? DEFAULT_TOOLS;
  const unknown = chosen.filter((name) => !TOOL_NAMES.includes(name));
  // Read-only: the read tools, in the order --tool gave them, then the rest of them.
  const names = oversight.readOnly ? [...chosen.filter((name) => READ_TOOLS.includes(name)), ...READ_TOOLS.filter((name) => !chosen.includes(name))] : chosen;
  if (unknown.length > 0) throw new ConfigError(`--tool ${unknown.join(', ')}: not a tool of the julia profile; choose from ${TOOL_NAMES.join(', ')}`);
  if (names.length === 1 && names[0] === RUN_OPERATIONS) throw new ConfigError('--tool run_operations cannot be enabled alone: it runs the other enabled tools');

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
    Buffer.byteLength(json, 'utf8') <= settings.maxResultBytes ? toResult(payload, json) : toResult(resultLimitPayload(payload, tool, isMutating));

  return {
    name: 'julia',
    serverInfo: { name: 'libtmux', version: VERSION },
    tools: enabled.map((tool) => declare(tool, app, schemaSettings)),
    context: app,
    maxResponseBytes: MAX_OUTBOUND_BYTES,
    capacity: { methods: new Set(['tools/call']), workers: options.workers, capacity: options.capacity },
    jsonRpcRules: {
      methods: new Set(['server/discover', 'initialize', 'tools/list', 'ping', 'tools/call']),
      legacyVersion: '2025-11-25',
      modernVersion: '2026-07-28',
      limits: { maxBytes: 2 * 1024 * 1024, maxDepth: 64, maxTokens: 16384, message: 'Invalid or over-limit JSON input' },
    },
    renderError: (error, tool) => limited({ error: envelope(error, isMutating(tool)) }, tool),
    renderSuccess: (outcome, tool) => limited(outcome.structured as Payload, tool, outcome.text),
    closing: () => app.close(),
    singleContentBlock: true,
    close: () => closeOwned(app),
  };
}

/** One tool as the MCP layer serves it: plan, then run under the call's deadline, counted while it runs. */
function declare(tool: JuliaTool & { argumentSchema?: JsonSchema }, app: JuliaApp, settings: SchemaSettings): ToolDeclaration<JuliaApp> {
  const input = tool.input(settings);
  // run_operations races each operation itself, so a deadline lands on the operation it interrupted.
  const ownsDeadline = tool.name === RUN_OPERATIONS;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: input,
    argumentSchema: tool.argumentSchema ?? argumentSchema(input),
    outputSchema: tool.output,
    annotations: tool.annotations,
    group: 'julia',
    handler: (args, call) =>
      app.counted(async () => {
        const plan = tool.plan(args, app);
        const deadline = new Deadline(app.settings.timeoutMs, call.signal, app.closing);
        try {
          const work = tool.run(plan, { app, deadline, progress: call.progress, ...(call.auditItem ? { auditItem: call.auditItem } : {}) });
          const payload: Payload = await (ownsDeadline ? work : deadline.race(work));
          return { structured: payload, text: JSON.stringify(payload) };
        } finally {
          deadline.dispose();
        }
      }),
  };
}

/** Pane ids given at start-up, bound to the generation of the server running now; a missing one stops start-up. */
async function resolvePanes(engine: Engine, paneIds: readonly string[]): Promise<PaneTarget[]> {
  if (paneIds.length === 0) return [];
  const panes = await engine.listPanes();
  return paneIds.map((paneId) => {
    const pane = panes.find((p) => p.id === paneId);
    if (!pane) throw new ConfigError(`configured pane ${paneId} does not exist`);
    return { paneId, generation: generationOf(pane.incarnation) };
  });
}
