/**
 * Hosts in the libtmux contract, which has no host field anywhere: each call goes to the host its
 * targets name (a ref's own host, or a `NAME:` prefix on an id or session name; nothing means the
 * local tmux), the listings span every host, and ids in a host's answers come back as `NAME:%3`.
 * See core/hosts.ts for the rule, README "Hosts" for the user's view.
 */
import {
  asFailure,
  type EngineRegistry,
  isHostUnreachable,
  oneHost,
  qualify,
  type RoutedTarget,
  routeTarget,
  unanswered,
} from '../../core/index.js';
import type { ToolCall, ToolOutcome } from '../../mcp/tools/tool.js';
import type { LibtmuxContext } from './context.js';
import type { LibtmuxTool } from './declare.js';

/** Arguments that name a tmux object (or a channel) and so choose the host. */
const TARGET_FIELDS = ['paneId', 'otherPaneId', 'windowId', 'window', 'session', 'sourceSession', 'target', 'channel'] as const;
/** Per tool, more arguments that choose the host: a new session's name says where to make it. */
const EXTRA_TARGET_FIELDS: Readonly<Record<string, readonly string[]>> = { create_session: ['name'] };

type Answer = Record<string, unknown>;
/** Joins the answers of every server into one, in server order. */
type Merge = (answers: readonly Answer[]) => Answer;

const rows = (answers: readonly Answer[], key: string): unknown[] =>
  answers.flatMap((answer) => (answer[key] as unknown[] | undefined) ?? []);
const rowsOf =
  (key: string): Merge =>
  (answers) => ({ [key]: rows(answers, key) });

/** Tools that, given no target, answer for every host, and how their answers join. */
const SPANNING: Readonly<Record<string, Merge>> = {
  list_sessions: rowsOf('sessions'),
  list_windows: rowsOf('windows'),
  list_panes: rowsOf('panes'),
  // Each server's search keeps its own bounds; the counts add up and the reasons for cutting short join.
  search_panes: (answers) => ({
    matches: rows(answers, 'matches'),
    panesAvailable: answers.reduce((sum, answer) => sum + (answer.panesAvailable as number), 0),
    panesSearched: answers.reduce((sum, answer) => sum + (answer.panesSearched as number), 0),
    truncated: answers.some((answer) => answer.truncated === true),
    truncatedBy: [...new Set(rows(answers, 'truncatedBy'))],
  }),
};

/** Answer fields holding tmux ids (or arrays of them), written `NAME:%3` when they come from a host. */
const ID_FIELDS = new Set([
  'id',
  'paneId',
  'pane',
  'windowId',
  'windowID',
  'sessionId',
  'sessionID',
  'otherPaneId',
  'resolvedPaneIds',
  'target',
]);
/** Answer fields holding records (or arrays of them) whose ids are qualified in turn. */
const RECORD_FIELDS = new Set(['sessions', 'windows', 'panes', 'placements', 'window', 'session', 'pane', 'capture', 'targets', 'matches']);

/** `tool` as it runs among hosts; with no hosts configured it is `tool` itself. */
export function hostAware(tool: LibtmuxTool, registry: EngineRegistry): LibtmuxTool {
  const hosts = new Set(registry.hostNames);
  if (hosts.size === 0) return tool;
  const fields = [...TARGET_FIELDS, ...(EXTRA_TARGET_FIELDS[tool.name] ?? [])];
  const span = SPANNING[tool.name];
  const handler = async (args: Record<string, unknown>, call: ToolCall<LibtmuxContext>): Promise<ToolOutcome> => {
    const { host, args: local, targeted } = routeArgs(args, fields, hosts);
    if (span !== undefined && !targeted) return spanHosts(tool, span, args, call, registry);
    return onHost(tool, host, local, call, registry);
  };
  return { ...tool, handler: handler as LibtmuxTool['handler'] };
}

/** Which host the call's targets name, and the arguments with `NAME:` prefixes taken off. */
function routeArgs(
  args: Record<string, unknown>,
  fields: readonly string[],
  hosts: ReadonlySet<string>,
): { host: string | undefined; args: Record<string, unknown>; targeted: boolean } {
  const local: Record<string, unknown> = { ...args };
  const routed: RoutedTarget[] = [];
  const named: string[] = [];
  const take = (value: unknown, field: string): unknown => {
    if (typeof value !== 'string') return value;
    const route = routeTarget(value, hosts);
    routed.push(route);
    named.push(field);
    return route.target;
  };
  for (const field of fields) if (field in local) local[field] = take(local[field], field);
  // send_keys_batch: every operation names its pane; all must be on one host.
  if (Array.isArray(local.operations)) {
    local.operations = local.operations.map((op: unknown, i) =>
      op !== null && typeof op === 'object' && 'paneId' in op
        ? { ...op, paneId: take((op as { paneId: unknown }).paneId, `operations[${i}].paneId`) }
        : op,
    );
  }
  return { host: oneHost(routed, named), args: local, targeted: routed.length > 0 };
}

async function onHost(
  tool: LibtmuxTool,
  host: string | undefined,
  args: Record<string, unknown>,
  call: ToolCall<LibtmuxContext>,
  registry: EngineRegistry,
): Promise<ToolOutcome> {
  if (host === undefined) return tool.handler(args, call);
  try {
    const outcome = await registry.use(registry.hostLocation(host), (engine) =>
      tool.handler(args, { ...call, ctx: { ...call.ctx, engine } }),
    );
    registry.markReachable(host);
    return qualifyOutcome(host, outcome);
  } catch (thrown) {
    const error = asFailure(thrown) ?? thrown;
    if (isHostUnreachable(error)) registry.markUnreachable(host, error);
    throw onHostError(host, error);
  }
}

/** A call over the local tmux and every host; a host that cannot answer is named in the text, the others still answer. */
async function spanHosts(
  tool: LibtmuxTool,
  merge: Merge,
  args: Record<string, unknown>,
  call: ToolCall<LibtmuxContext>,
  registry: EngineRegistry,
): Promise<ToolOutcome> {
  const answers = await registry.everyServer((_engine, host) => onHost(tool, host, args, call, registry));
  const missing = unanswered(answers);
  if (missing.length === answers.length) throw (answers[0] as { error: unknown }).error;
  const structured = merge(answers.flatMap((answer) => (answer.ok ? [answer.value.structured] : [])));
  const note = missing.length ? `\nNot listed (host could not answer): ${missing.join('; ')}` : '';
  return { structured, text: JSON.stringify(structured) + note };
}

function qualifyOutcome(host: string, outcome: ToolOutcome): ToolOutcome {
  const structured = qualifyRecord(host, outcome.structured);
  // A tool's own summary names panes as its host knows them: say which host that is.
  return { structured, ...(outcome.text !== undefined ? { text: `[host ${host}]\n${outcome.text}` } : {}) };
}

function qualifyRecord(host: string, record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (ID_FIELDS.has(key) && typeof value === 'string') out[key] = qualify(host, value);
    else if (ID_FIELDS.has(key) && Array.isArray(value)) out[key] = value.map((v) => (typeof v === 'string' ? qualify(host, v) : v));
    else if (RECORD_FIELDS.has(key) && Array.isArray(value)) out[key] = value.map((v) => (isRecord(v) ? qualifyRecord(host, v) : v));
    else if (RECORD_FIELDS.has(key) && isRecord(value)) out[key] = qualifyRecord(host, value);
    else out[key] = value;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Errors from a host say which host they came from. */
function onHostError(host: string, error: unknown): unknown {
  const failure = asFailure(error);
  if (failure && !failure.message.includes(`host ${host}`)) failure.message = `host ${host}: ${failure.message}`;
  return failure ?? error;
}
