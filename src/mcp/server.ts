/**
 * Builds the MCP server for one profile: lists its selected tools exactly as declared, validates
 * every call's arguments before the handler runs and every result against its output schema, turns
 * failures into tool errors, and keeps every response under the wire cap.
 */
import {
  CLIENT_INFO_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  isInputRequiredResult,
  type CallToolResult,
  type InputRequiredResult,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';
import { withCapacity } from './wire/capacity.js';
import { withJsonRpcRules } from './wire/jsonrpc-rules.js';
import type { Profile } from './profile.js';
import { withEraResourceNotFound } from './surface/resource-not-found.js';
import { compileValidator, ensureValidation, validationReady, type Validator } from './tools/validation.js';
import { boundError, boundErrorText } from './tools/error-cap.js';
import { serveCompletions } from './surface/completions.js';
import { servePrompts } from './surface/prompts.js';
import { serveResources } from './surface/resources.js';
import { extraSurface, serverCapabilities, toolListing, type Surface } from './surface/listing.js';
import { describeError, errorResult, MAX_RESPONSE_BYTES, responseBytes, successResult, type RenderedResult } from './tools/results.js';
import type { AuditItem, NestedCaller, ToolCall, ToolDeclaration, ToolOutcome } from './tools/tool.js';
import { Failure, isShuttingDown, refused, SHUTDOWN_NOTE } from '../core/index.js';
import type { AuditClient, AuditTrail } from './tools/audit.js';
import type { Approvals, ItemGate } from './approvals/gate.js';
import type { ClientRequest } from './approvals/elicit.js';
import { withShapeAudit } from './tools/audit-shape.js';

export type { Profile } from './profile.js';

/**
 * The wire as the profile's contract wants it: each era's resource-not-found code, its JSON-RPC
 * rules, then its request capacity.
 */
export function profileWire<Ctx>(profile: Profile<Ctx>, wire: Transport): Transport {
  const coded = withEraResourceNotFound(wire);
  const ruled = profile.jsonRpcRules ? withJsonRpcRules(coded, profile.jsonRpcRules) : coded;
  return profile.capacity ? withCapacity(ruled, profile.capacity) : ruled;
}

interface Registered<Ctx> {
  readonly declaration: ToolDeclaration<Ctx>;
  readonly validateInput: Validator;
  readonly validateOutput: Validator | undefined;
}

/** What one invocation runs under: the client's request, whether direct or nested in a batch. */
interface Invocation {
  readonly requestId: RequestId;
  readonly signal: AbortSignal;
  readonly progress: ToolCall<unknown>['progress'];
  /** False inside a nested call: nesting is one level deep. */
  readonly mayNest: boolean;
  /** Who called, for the audit (set only when calls are audited). */
  readonly client?: AuditClient;
  /** Inside a batch, when calls are audited: the batch's entry and the next item's place. */
  readonly batch?: { readonly id: number; readonly tool: string; next: number };
  /** With approvals: the SDK request the call came in on, so the client can be asked. */
  readonly request?: ClientRequest;
  /** Inside a batch whose items need approval: asks about item `index` when its turn comes. */
  readonly approveItem?: ItemGate;
}

export interface ServerFactoryOptions {
  /** When set, every tools/call (batch items too) is recorded here: the audit log and the view's trail. */
  readonly trail?: AuditTrail;
  /** When set (--approve, the view's pause), calls wait for a person where its rules say (approvals/gate.ts). */
  readonly approvals?: Approvals;
}

/**
 * Prepares a profile once (compiled validators, the listing) and returns the factory the transports
 * call for a fresh `Server` per connection (stdio) or per request (HTTP); every server it builds
 * shares the profile's context, so one engine serves them all.
 */
export function createServerFactory<Ctx>(profile: Profile<Ctx>, options: ServerFactoryOptions = {}): () => Server {
  const invoker = createInvoker(profile, options.trail, options.approvals);
  const listing = toolListing(profile);
  const surface = extraSurface(profile);
  return () => buildServer(profile, invoker, listing, surface, options.approvals);
}

function buildServer<Ctx>(
  profile: Profile<Ctx>,
  invoker: ReturnType<typeof createInvoker<Ctx>>,
  listing: readonly object[],
  surface: Surface,
  approvals: Approvals | undefined,
): Server {
  const { resources, templates, prompts, completable } = surface;
  const hasResources = resources.length > 0 || templates.length > 0;
  const extra = profile.capabilities ?? {};
  const server = new Server(profile.serverInfo, {
    capabilities: serverCapabilities(profile, surface),
    ...(profile.instructions ? { instructions: profile.instructions } : {}),
    ...(approvals ? approvals.serverOptions : {}),
  });

  server.setRequestHandler('tools/list', async () => ({ tools: listing as never }));
  if (invoker.audits) {
    // A call the SDK refuses by its request schema reaches no handler: the audit hears of it on the way in.
    const connect = server.connect.bind(server);
    server.connect = (transport) =>
      connect(
        withShapeAudit(transport, (call) =>
          invoker.refusedUnlisted(
            call.tool,
            call.arguments,
            call.why,
            clientOf(call.clientName ?? server.getClientVersion()?.name, call.session),
          ),
        ),
      );
  }

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args = {} } = request.params;
    // Who is calling matters only to the audit; unaudited calls do not look.
    const client = invoker.auditing() ? auditClient(server, ctx) : undefined;
    if (!invoker.listed.has(name)) {
      const answer = profile.answerUnavailable?.(name);
      if (answer) return answer;
      // Not listed means not callable, even when a batch may reach it: the protocol's "bad params".
      const message = boundErrorText(
        profile.describeUnavailable?.(name) ?? `unknown tool ${JSON.stringify(name)}; call tools/list for the tools this server offers`,
      );
      invoker.refusedUnlisted(name, args, message, client);
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, message);
    }
    const progressToken = ctx.mcpReq._meta?.progressToken;
    return invoker.invoke(name, args, {
      requestId: ctx.mcpReq.id,
      signal: ctx.mcpReq.signal,
      mayNest: true,
      ...(client ? { client } : {}),
      ...(approvals ? { request: { server, ctx } } : {}),
      progress: async (progress, total, message) => {
        if (progressToken === undefined) return;
        await ctx.mcpReq
          .notify({
            method: 'notifications/progress',
            params: { progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) },
          })
          .catch(() => {});
      },
    });
  });

  if (hasResources) serveResources(server, resources, templates);
  if (prompts.length > 0) servePrompts(server, prompts);
  if (completable) serveCompletions(server, completable);
  // A contract that advertises logging gets a level the server keeps; it sends no log messages of its own.
  if (extra.logging) server.setRequestHandler('logging/setLevel', async () => ({}));
  return server;
}

/**
 * The one code path every tool call takes, direct or nested: validate the arguments, run the
 * handler, validate its result, render it, keep it under the wire cap. A batch calls its nested
 * tools through here too, so they are checked exactly as if the client had called them.
 */
function createInvoker<Ctx>(profile: Profile<Ctx>, trail?: AuditTrail, approvals?: Approvals) {
  const registered = new Map<string, Registered<Ctx>>();
  for (const declaration of [...profile.tools, ...(profile.nestedOnlyTools ?? [])]) {
    registered.set(declaration.name, {
      declaration,
      validateInput: compileValidator(declaration.argumentSchema ?? declaration.inputSchema, 'arguments'),
      validateOutput: declaration.outputSchema ? compileValidator(declaration.outputSchema, 'result') : undefined,
    });
  }
  const listed = new Set(profile.tools.map((tool) => tool.name));

  const nestedCaller = (declaration: ToolDeclaration<Ctx>, parent: Invocation): NestedCaller => {
    const names = (declaration.nestedAuthority ?? []).filter((name) => registered.has(name) && name !== declaration.name);
    return {
      names,
      async call(name, args, index) {
        if (!names.includes(name)) {
          return renderFailure(
            profile,
            refused(`${declaration.name} may not call "${name}"`, `it may call: ${names.join(', ') || 'nothing'}`),
            name,
          );
        }
        // Audited, the item's entry names the batch and its place in it.
        const item = parent.batch ? { id: parent.batch.id, tool: parent.batch.tool, next: index ?? parent.batch.next++ } : undefined;
        if (parent.approveItem && index !== undefined) {
          try {
            await parent.approveItem(index);
          } catch (error) {
            return renderFailure(profile, error, name);
          }
        }
        return invoke(name, args, {
          ...parent,
          mayNest: false,
          progress: async () => {},
          ...(item ? { batch: item } : {}),
        }) as Promise<CallToolResult>;
      },
    };
  };

  /**
   * The audited path: the call runs as it would without the audit, and one entry records it when it
   * ends, with the targets read from its arguments and answer (audit-targets.ts). A batch's items (nested calls) are
   * entries of their own that name their batch; their targets count for the batch too.
   */
  async function audited(name: string, args: unknown, invocation: Invocation): Promise<Answer> {
    const { batch, client } = invocation;
    return trail!.track(
      {
        tool: name,
        arguments: args,
        ...targetsOf(name),
        ...(client ? { client } : {}),
        ...(batch ? { batch: { id: batch.id, tool: batch.tool, index: batch.next } } : {}),
      },
      (id) => run(name, args, { ...invocation, batch: { id, tool: name, next: 0 } }),
      (result) =>
        isInputRequiredResult(result)
          ? { asked: true }
          : { ...(result.isError ? { error: errorMessage(result) } : {}), structured: result.structuredContent },
    );
  }

  /** For a batch that runs its items itself: each item an entry of its own, as a nested call would be. */
  function itemAuditor(batch: NonNullable<Invocation['batch']>, client: AuditClient | undefined): AuditItem {
    return (tool, args, work) =>
      trail!.track(
        {
          tool,
          arguments: args,
          ...targetsOf(tool),
          ...(client ? { client } : {}),
          batch: { id: batch.id, tool: batch.tool, index: batch.next++ },
        },
        work,
        (structured) => ({ structured }),
      );
  }

  /** The arguments a tool declares as targets, for its audit entry. */
  function targetsOf(name: string): { targets?: readonly string[] } {
    const targets = registered.get(name)?.declaration.targets;
    return targets ? { targets } : {};
  }

  /** Without an audit (or with only a view that no page has open), a call is just run: nothing is timed or recorded. */
  const invoke = trail
    ? (name: string, args: unknown, invocation: Invocation) =>
        trail.active ? audited(name, args, invocation) : run(name, args, invocation)
    : run;

  /** A call of a tool this server does not list, refused before any handler: an entry too. */
  function refusedUnlisted(name: string, args: unknown, message: string, client: AuditClient | undefined): void {
    if (trail?.active)
      trail.record({
        id: trail.nextId(),
        time: new Date().toISOString(),
        client: client ?? {},
        tool: name,
        arguments: args,
        targets: [],
        outcome: 'error',
        error: message,
        ms: 0,
      });
  }

  async function run(name: string, args: unknown, invocation: Invocation): Promise<Answer> {
    const tool = registered.get(name)!;
    const { declaration } = tool;
    if (!validationReady()) await ensureValidation();
    const problem = tool.validateInput(args);
    if (problem) return renderFailure(profile, new Failure('invalid_argument', `${name}: ${problem}`), name);
    // A person may have to say yes first (approvals/gate.ts); a call no rule meets is not held here.
    const screening = approvals && invocation.mayNest ? approvals.screen(screenCall(declaration, args, invocation)) : undefined;
    if (screening) {
      const screened = await screening;
      if (screened.kind === 'ask') return screened.result;
      if (screened.kind === 'refuse') return renderFailure(profile, screened.failure, name);
      if (screened.item) invocation = { ...invocation, approveItem: screened.item };
    }
    let outcome: ToolOutcome;
    try {
      outcome = await declaration.handler(args, {
        ctx: profile.context,
        signal: invocation.signal,
        progress: invocation.progress,
        ...(declaration.nestedAuthority && invocation.mayNest ? { nested: nestedCaller(declaration, invocation) } : {}),
        ...(trail?.active && invocation.batch && invocation.mayNest ? { auditItem: itemAuditor(invocation.batch, invocation.client) } : {}),
        ...(invocation.approveItem && invocation.mayNest ? { approveItem: invocation.approveItem } : {}),
      });
    } catch (error) {
      return renderFailure(profile, error, name);
    }
    const mismatch = tool.validateOutput?.(outcome.structured);
    if (mismatch) {
      return renderFailure(profile, new Failure('internal', `${name} produced a result outside its output schema: ${mismatch}`), name);
    }
    const result = fitResponse(profile, declaration, outcome, invocation.requestId);
    // A call that ends while the server shuts down says so: any wait in it was cut short.
    if (isShuttingDown() && !profile.singleContentBlock && invocation.mayNest)
      result.content = [...result.content, { type: 'text', text: `[${SHUTDOWN_NOTE}]` }];
    return result;
  }

  /** What the gate is told of a direct call. */
  function screenCall(declaration: ToolDeclaration<Ctx>, args: unknown, invocation: Invocation) {
    return {
      tool: declaration,
      args,
      ctx: profile.context,
      lookup: (name: string) => registered.get(name)?.declaration,
      signal: invocation.signal,
      progress: invocation.progress,
      ...(invocation.request ? { request: invocation.request } : {}),
      ...(invocation.client ? { client: invocation.client } : {}),
      ...(invocation.batch ? { callId: invocation.batch.id } : {}),
    };
  }

  return { listed, invoke, audits: trail !== undefined, auditing: () => trail?.active === true, refusedUnlisted };
}

/** A tool call's answer: its result, or (2026, approvals) the question the client is to answer first. */
type Answer = CallToolResult | InputRequiredResult;

/** The client's name (its 2026 per-request envelope, else its 2025 initialize) and the HTTP session, if any. */
function auditClient(server: Server, ctx: { sessionId?: string; mcpReq: { envelope?: object } }): AuditClient {
  const info = (ctx.mcpReq.envelope as Record<string, { name?: unknown } | undefined> | undefined)?.[CLIENT_INFO_META_KEY];
  const name = typeof info?.name === 'string' ? info.name : server.getClientVersion()?.name;
  return clientOf(name, ctx.sessionId);
}

function clientOf(name: string | undefined, session: string | undefined): AuditClient {
  return { ...(name !== undefined ? { name } : {}), ...(session !== undefined ? { session } : {}) };
}

/** What went wrong, for an error result: the contract's structured error message when it has one, else the text. */
function errorMessage(result: CallToolResult): string {
  const structured = (result.structuredContent as { error?: { message?: unknown } } | undefined)?.error?.message;
  if (typeof structured === 'string') return structured;
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

function renderSuccess<Ctx>(profile: Profile<Ctx>, outcome: ToolOutcome, tool: string): RenderedResult {
  return profile.renderSuccess ? profile.renderSuccess(outcome, tool) : successResult(outcome);
}

function renderFailure<Ctx>(profile: Profile<Ctx>, error: unknown, tool: string): CallToolResult {
  // Errors echo inputs: bounded and escaped like this, they stay readable and under the cap too.
  return boundError(profile.renderError ? profile.renderError(error, tool) : errorResult(describeError(error)));
}

/**
 * Keeps the response strictly under MAX_RESPONSE_BYTES: a tool that can shrink its answer (a
 * batch dropping nested results) is asked to, piece by piece; anything else over the cap
 * becomes an error that says to ask for less.
 */
function fitResponse<Ctx>(
  profile: Profile<Ctx>,
  declaration: ToolDeclaration<Ctx>,
  outcome: ToolOutcome,
  requestId: RequestId,
): CallToolResult {
  const limit = profile.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  let current: ToolOutcome | undefined = outcome;
  let rendered = renderSuccess(profile, current, declaration.name);
  let bytes = responseBytes(rendered, requestId);
  while (bytes >= limit && declaration.shrinkOutcome && current) {
    current = declaration.shrinkOutcome(current);
    if (!current) break;
    rendered = renderSuccess(profile, current, declaration.name);
    bytes = responseBytes(rendered, requestId);
  }
  if (bytes < limit) return rendered.result;
  return renderFailure(
    profile,
    new Failure(
      'too_large',
      `${declaration.name}: the result would take ${bytes} bytes, over the ${limit}-byte response limit`,
      'ask for less (a smaller maxLines or a narrower target)',
    ),
    declaration.name,
  );
}
