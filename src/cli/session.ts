/** What `tmux-mcp call` and `tmux-mcp tools` need from a server, in-process or over HTTP: a listing and one call. */

export interface ListedTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
}

export interface ToolResult {
  readonly isError?: boolean;
  readonly content?: ReadonlyArray<{ readonly type: string; readonly text?: string }>;
  readonly structuredContent?: Record<string, unknown>;
}

export interface CallSession {
  /** Which server answers, for messages: "the libtmux profile" or the URL. */
  readonly label: string;
  listTools(): Promise<ListedTool[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

/**
 * A JSON-RPC error the server answered instead of a result (an unknown or unselected tool, params
 * the protocol refuses): the caller's mistake, so exit status 2.
 */
export class ProtocolRefusal extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}
