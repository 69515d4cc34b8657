/**
 * A peer for the 200-pane listing: an SDK server whose list_panes asks tmux for three fields per
 * pane, the way the most-used TypeScript tmux MCP server (nickgnd/tmux-mcp 0.2.2) does it: one
 * `tmux list-panes -F "#{pane_id}:#{pane_title}:#{pane_active}"` through child_process.exec per
 * call, parsed into {id, title, active}. It lists the whole server (-a), like our list_panes
 * without arguments. The socket comes from LIBTMUX_SOCKET_PATH, as for our server.
 */
import { exec } from 'node:child_process';
import { promisify } from 'node:util';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const run = promisify(exec);
const socket = process.env.LIBTMUX_SOCKET_PATH ?? '';

const server = new Server({ name: 'three-field-peer', version: '0' }, { capabilities: { tools: { listChanged: false } } });

server.setRequestHandler('tools/list', async () => ({
  tools: [{ name: 'list_panes', description: 'Lists panes: id, title, active.', inputSchema: { type: 'object', properties: {} } }],
}));

server.setRequestHandler('tools/call', async () => {
  const { stdout } = await run(`tmux -S '${socket}' list-panes -a -F "#{pane_id}:#{pane_title}:#{pane_active}"`);
  const panes = stdout
    .trim()
    .split('\n')
    .map((line) => {
      const [id, title, active] = line.split(':');
      return { id, title, active: active === '1' };
    });
  const structured = { panes };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
});

process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
