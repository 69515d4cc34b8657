/**
 * Builds the MCP server for one profile: lists its selected tools exactly as declared, validates
 * every call's arguments before the handler runs and every result against its output schema, turns
 * failures into tool errors, and keeps every response under the wire cap.
 */
import { Server, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import { compileValidator, type Validator } from './validation.js';
import { ToolFailure, type ToolDeclaration, type ToolOutcome } from './tool.js';
import { isTmuxError } from '../tmux/server.js';

/** The most bytes one JSON-RPC response may take on the wire. */
export const MAX_RESPONSE_BYTES = 1_000_000;

export interface ResourceDeclaration {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType: string;
  read(): Promise<string>;
}

export interface Profile<Ctx> {
  readonly name: string;
  readonly serverInfo: { readonly name: string; readonly title?: string; readonly version: string };
  readonly instructions?: string;
  /** The tools this process serves, already narrowed by the selection in force. */
  readonly tools: readonly ToolDeclaration<Ctx>[];
  readonly resources?: readonly ResourceDeclaration[];
  readonly context: Ctx;
  /** Turns a thrown failure into the tool result this contract prescribes. */
  renderError?(error: unknown, tool: string): CallToolResult;
  /** Renders a success; the default is `structuredContent` plus its JSON as text. */
  renderSuccess?(outcome: ToolOutcome, tool: string): CallToolResult;
}

interface Registered<Ctx> {
  readonly declaration: ToolDeclaration<Ctx>;
  readonly validateInput: Validator;
  readonly validateOutput: Validator | undefined;
}

export function createMcpServer<Ctx>(profile: Profile<Ctx>): Server {
  const registered = new Map<string, Registered<Ctx>>();
  for (const declaration of profile.tools) {
    registered.set(declaration.name, {
      declaration,
      validateInput: compileValidator(declaration.inputSchema, 'arguments'),
      validateOutput: declaration.outputSchema ? compileValidator(declaration.outputSchema, 'result') : undefined,
    });
  }
  const listing = profile.tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool._meta ? { _meta: tool._meta } : {}),
  }));
  const resources = profile.resources ?? [];

  const server = new Server(profile.serverInfo, {
    capabilities: {
      tools: { listChanged: false },
      ...(resources.length > 0 ? { resources: { listChanged: false, subscribe: false } } : {}),
    },
    ...(profile.instructions ? { instructions: profile.instructions } : {}),
  });

  server.setRequestHandler('tools/list', async () => ({ tools: listing as never }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args = {} } = request.params;
    const tool = registered.get(name);
    if (!tool) {
      return errorResult(`unknown tool "${name}"; call tools/list for the tools this server offers`);
    }
    const result = await callTool(profile, tool, args, ctx);
    return capResponse(result, name);
  });

  if (resources.length > 0) {
    server.setRequestHandler('resources/list', async () => ({
      resources: resources.map(({ uri, name, title, description, mimeType }) => ({
        uri,
        name,
        mimeType,
        ...(title ? { title } : {}),
        ...(description ? { description } : {}),
      })),
    }));
    server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: [] }));
    server.setRequestHandler('resources/read', async (request) => {
      const resource = resources.find((r) => r.uri === request.params.uri);
      if (!resource) throw new Error(`unknown resource ${request.params.uri}`);
      return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: await resource.read() }] };
    });
  }
  return server;
}

async function callTool<Ctx>(
  profile: Profile<Ctx>,
  tool: Registered<Ctx>,
  args: unknown,
  ctx: ServerContext,
): Promise<CallToolResult> {
  const name = tool.declaration.name;
  const problem = tool.validateInput(args);
  if (problem) return renderFailure(profile, new ToolFailure('invalid_argument', `${name}: ${problem}`), name);
  const progressToken = ctx.mcpReq._meta?.progressToken;
  try {
    const outcome = await tool.declaration.handler(args, {
      ctx: profile.context,
      signal: ctx.mcpReq.signal,
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
    const mismatch = tool.validateOutput?.(outcome.structured);
    if (mismatch) {
      return renderFailure(profile, new ToolFailure('internal', `${name} produced a result outside its output schema: ${mismatch}`), name);
    }
    return profile.renderSuccess ? profile.renderSuccess(outcome, name) : successResult(outcome);
  } catch (error) {
    return renderFailure(profile, error, name);
  }
}

export function successResult(outcome: ToolOutcome): CallToolResult {
  return {
    content: [{ type: 'text', text: outcome.text ?? JSON.stringify(outcome.structured) }],
    structuredContent: outcome.structured,
  };
}

function renderFailure<Ctx>(profile: Profile<Ctx>, error: unknown, tool: string): CallToolResult {
  if (profile.renderError) return profile.renderError(error, tool);
  return errorResult(describeError(error));
}

/** The message and, when there is one, the next step, for any failure a handler can throw. */
export function describeError(error: unknown): string {
  if (error instanceof ToolFailure || isTmuxError(error)) {
    return error.hint ? `${error.message}. ${error.hint}` : error.message;
  }
  if (error instanceof Error) return `internal error: ${error.message}`;
  return `internal error: ${String(error)}`;
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

// Room for the JSON-RPC envelope (`{"jsonrpc":"2.0","id":...,"result":...}`) around the result.
const ENVELOPE_BYTES = 512;

function capResponse(result: CallToolResult, tool: string): CallToolResult {
  const bytes = Buffer.byteLength(JSON.stringify(result), 'utf8');
  if (bytes + ENVELOPE_BYTES < MAX_RESPONSE_BYTES) return result;
  return errorResult(
    `${tool}: the result would take ${bytes} bytes, over the ${MAX_RESPONSE_BYTES}-byte response limit; ask for less (a smaller maxLines or a narrower target)`,
  );
}
