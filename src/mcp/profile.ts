/**
 * What a profile hands the MCP server: its tools (already selected), resources, prompts, and how its
 * contract renders results and errors, bounds responses and admits requests.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { PromptDeclaration } from './surface/prompts.js';
import type { ResourceDeclaration, ResourceTemplateDeclaration } from './surface/resources.js';
import type { RenderedResult } from './tools/results.js';
import type { ToolDeclaration, ToolOutcome } from './tools/tool.js';
import type { CapacityOptions } from './wire/capacity.js';
import type { JsonRpcRules } from './wire/jsonrpc-rules.js';

export interface Profile<Ctx> {
  readonly name: string;
  readonly serverInfo: { readonly name: string; readonly title?: string; readonly version: string };
  readonly instructions?: string;
  /** The tools this process lists and serves, already narrowed by the selection in force. */
  readonly tools: readonly ToolDeclaration<Ctx>[];
  /**
   * Tools that are not listed and cannot be called directly, but that a listed tool may call
   * through its `nestedAuthority` (a batch keeps its reach when its nested tools are not selected).
   */
  readonly nestedOnlyTools?: readonly ToolDeclaration<Ctx>[];
  readonly resources?: readonly ResourceDeclaration[];
  /** Resource templates; a variable with a completer makes the server offer completions. */
  readonly resourceTemplates?: readonly ResourceTemplateDeclaration[];
  /** Prompts; an argument with a completer makes the server offer completions. */
  readonly prompts?: readonly PromptDeclaration[];
  /** Capabilities the contract advertises beyond what the server derives (logging, tools.listChanged). */
  readonly capabilities?: { readonly logging?: boolean; readonly toolsListChanged?: boolean };
  readonly context: Ctx;
  /** Why `name` cannot be called here (not a tool, or not selected); the default says "unknown tool". */
  describeUnavailable?(name: string): string | undefined;
  /**
   * A call to a tool the profile has but does not serve (its toolset is off), answered as a tool
   * result the agent reads, when the contract answers so; undefined keeps the protocol error.
   */
  answerUnavailable?(name: string): CallToolResult | undefined;
  /** Turns a thrown failure into the tool result this contract prescribes. */
  renderError?(error: unknown, tool: string): CallToolResult;
  /** Renders a success; the default is `structuredContent` plus its JSON as text. */
  renderSuccess?(outcome: ToolOutcome, tool: string): RenderedResult;
  /** The most bytes one response may take on the wire, when the contract says other than MAX_RESPONSE_BYTES. */
  readonly maxResponseBytes?: number;
  /** When the contract bounds concurrent tool calls: the transport is wrapped with withCapacity (capacity.ts). */
  readonly capacity?: CapacityOptions;
  /** When the contract sets JSON-RPC admission rules: the transport is wrapped with withJsonRpcRules (jsonrpc-rules.ts). */
  readonly jsonRpcRules?: JsonRpcRules;
  /**
   * When the profile can end its calls at once as the server stops (its contract's "closed"): calls
   * running end now and later ones are refused, and the transports answer all of them before they close.
   */
  closing?(): void;
  /** The contract fixes `content` to exactly one block (julia): no note is added beside it. */
  readonly singleContentBlock?: boolean;
}
