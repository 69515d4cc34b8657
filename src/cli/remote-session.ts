/**
 * `tmux-mcp call --url`: the call goes to a running `tmux-mcp --http` through the official SDK
 * client over Streamable HTTP, so it shares that server's engine with the agents already connected
 * (waits and their cursors, refs, the last input into each pane) and nothing starts here.
 */
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { VERSION } from '../version.js';
import { ProtocolRefusal, type CallSession, type ListedTool, type ToolResult } from './session.js';

/**
 * Longer than any wait the server allows (600 s) and than a question waits for a person in its
 * view (--approve-timeout, at most 3600 s), so the server's own deadline always answers first.
 */
const REQUEST_TIMEOUT_MS = 3_660_000;

export async function openRemoteSession(url: URL, token: string): Promise<CallSession> {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'tmux-mcp-call', version: VERSION }, { versionNegotiation: { mode: 'auto' } });
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => {});
    throw new Error(`cannot reach the tmux-mcp server at ${url.href}: ${reason(error)}`);
  }
  const refusal = (error: unknown) => (error instanceof ProtocolError ? new ProtocolRefusal(error.message, error.code) : error);
  return {
    label: url.href,
    async listTools() {
      const tools: ListedTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client
          .listTools(cursor === undefined ? {} : { cursor })
          .catch((error: unknown) => Promise.reject(refusal(error)));
        tools.push(...(page.tools as ListedTool[]));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return tools;
    },
    async callTool(name, args) {
      // Raw results: the server validated them against their output schemas already.
      return (await client
        .callTool({ name, arguments: args }, { timeout: REQUEST_TIMEOUT_MS })
        .catch((error: unknown) => Promise.reject(refusal(error)))) as ToolResult;
    },
    close: () => client.close(),
  };
}

/** What went wrong in one line: a refused token and an unreachable port read differently. */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/\b401\b|unauthorized/i.test(message))
    return "the token was refused (401): pass the server's token in TMUX_MCP_TOKEN or --token-file";
  if (/ECONNREFUSED|fetch failed/i.test(message)) return 'nothing answers there (is `tmux-mcp --http` running on that port?)';
  return message.split('\n')[0]!;
}
