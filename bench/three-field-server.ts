/**
 * The peer of the 200-pane listing: list_panes as nickgnd/tmux-mcp 0.2.2 makes it, one spawned
 * `tmux list-panes -a -F "#{pane_id}:#{pane_title}:#{pane_active}"` per call, parsed into {id, title, active}.
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
