/**
 * A stand-in for nickgnd/tmux-mcp 0.2.2's way of working (shared/reference/ecosystem.md 3.1), on
 * this bench's SDK: every tool call runs `tmux` through a shell (`child_process.exec`, arguments
 * quoted with '...'), its tools answer text (JSON of a few fields), and a command's end is found by
 * scraping the last 1,000 lines of the pane for an end marker each time the agent asks for the
 * result (`execute-command`, then `get-command-result` until it says completed). What it leaves
 * out: bench/notes.md.
 */
import { exec } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const run = promisify(exec);
const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
// The socket is the bench's private one; the published server uses tmux's default.
const tmuxPrefix = `${quote(process.env.LIBTMUX_TMUX_BIN || 'tmux')} -S ${quote(process.env.LIBTMUX_SOCKET_PATH ?? '')}`;
const tmux = async (args: string) => (await run(`${tmuxPrefix} ${args}`, { maxBuffer: 64 * 1024 * 1024 })).stdout;

/** Commands started, by id: their pane and what was found of them so far. */
const commands = new Map<string, { paneId: string; status: 'pending' | 'completed'; exitCode?: number; output?: string }>();

/** Per-command markers, as nickgnd/tmux-mcp PR #29 makes them (0.2.2's fixed ones collide in a pane that runs several). */
const markers = (id: string) => ({ start: `TMUX_MCP_START_${id}`, done: `TMUX_MCP_DONE_${id}_` });

const tools: Record<string, (args: Record<string, string | boolean | undefined>) => Promise<string>> = {
  async 'list-sessions'() {
    const out = await tmux(`list-sessions -F '#{session_id}:#{session_name}:#{?session_attached,1,0}:#{session_windows}'`);
    const sessions = out
      .trim()
      .split('\n')
      .map((line) => {
        const [id, name, attached, windows] = line.split(':');
        return { id, name, attached: attached === '1', windows: Number(windows) };
      });
    return JSON.stringify(sessions, null, 2);
  },
  // The published tool lists one window's panes; with no window the stand-in lists them all in one process.
  async 'list-panes'({ windowId }) {
    const out = await tmux(`list-panes ${windowId ? `-t ${quote(String(windowId))}` : '-a'} -F '#{pane_id}:#{pane_title}:#{pane_active}'`);
    const panes = out
      .trim()
      .split('\n')
      .map((line) => {
        const [id, title, active] = line.split(':');
        return { id, title, active: active === '1' };
      });
    return JSON.stringify(panes, null, 2);
  },
  async 'capture-pane'({ paneId, lines }) {
    return (await tmux(`capture-pane -p -t ${quote(String(paneId))} -S -${Number(lines ?? 200)} -E -`)) || 'No content captured';
  },
  async 'execute-command'({ paneId, command, rawMode }) {
    const id = randomUUID();
    const { start, done } = markers(id);
    const typed = rawMode ? String(command) : `echo "${start}"; ${command}; echo "${done}$?"`;
    await tmux(`send-keys -t ${quote(String(paneId))} ${quote(typed)} Enter`);
    commands.set(id, { paneId: String(paneId), status: 'pending' });
    return `Command execution started.\n\ncommandId: ${id}`;
  },
  async 'get-command-result'({ commandId }) {
    const command = commands.get(String(commandId));
    if (!command) throw new Error(`Command not found: ${commandId}`);
    if (command.status === 'pending') {
      const screen = (await tmux(`capture-pane -p -t ${quote(command.paneId)} -S -1000 -E -`)).split('\n');
      const { start, done } = markers(String(commandId));
      // The typed line holds the markers too, quoted and before `$?` is expanded: only printed lines match.
      const from = screen.lastIndexOf(start);
      const end = screen.findIndex((line, i) => i > from && line.startsWith(done) && /^\d+$/.test(line.slice(done.length)));
      if (from !== -1 && end !== -1)
        Object.assign(command, {
          status: 'completed',
          exitCode: Number(screen[end]!.slice(done.length)),
          output: screen.slice(from + 1, end).join('\n'),
        });
    }
    return command.status === 'pending'
      ? 'Command still executing...'
      : `Status: completed\nExit code: ${command.exitCode}\n\n--- Output ---\n${command.output}`;
  },
};

const string = { type: 'string' } as const;
const schemas: Record<string, Record<string, { type: string }>> = {
  'list-sessions': {},
  'list-panes': { windowId: string },
  'capture-pane': { paneId: string, lines: string },
  'execute-command': { paneId: string, command: string, rawMode: { type: 'boolean' } },
  'get-command-result': { commandId: string },
};

const server = new Server({ name: 'nickgnd-way', version: '0' }, { capabilities: { tools: { listChanged: false } } });
server.setRequestHandler('tools/list', async () => ({
  tools: Object.entries(schemas).map(([name, properties]) => ({ name, inputSchema: { type: 'object' as const, properties } })),
}));
server.setRequestHandler('tools/call', async (request) => {
  const tool = tools[request.params.name];
  try {
    if (!tool) throw new Error(`no tool ${request.params.name}`);
    return { content: [{ type: 'text', text: await tool((request.params.arguments ?? {}) as Record<string, string>) }] };
  } catch (error) {
    return { content: [{ type: 'text', text: String(error) }], isError: true };
  }
});

process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
