/**
 * A stand-in for the Python libtmux-mcp's way of working (shared/reference/python-libtmux-mcp.md),
 * on this bench's SDK: libtmux runs one `tmux` process per command (Popen, no shell); a tool first
 * finds its pane in a fetch of every pane with every field libtmux's objects read, then acts; a
 * command runs in a subshell that signals a `tmux wait-for` channel the server blocks on, its status
 * read from a pane option; `wait_for_text` polls the pane every 50 ms (its default interval). What it
 * leaves out: bench/notes.md.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const run = promisify(execFile);
const TMUX = process.env.LIBTMUX_TMUX_BIN || 'tmux';
const SOCKET = process.env.LIBTMUX_SOCKET_PATH ?? '';
const tmux = async (...args: string[]) => (await run(TMUX, ['-S', SOCKET, ...args], { maxBuffer: 64 * 1024 * 1024 })).stdout;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const SESSION =
  'activity alerts attached attached_list created format group group_attached group_list group_many group_size grouped id last_attached many_attached name path stack windows';
const WINDOW =
  'active active_clients active_sessions activity activity_flag bell_flag bigger cell_height cell_width end_flag flags format height id index last_flag ' +
  'layout linked linked_sessions marked_flag name offset_x offset_y panes raw_flags silence_flag stack_index start_flag visible_layout width zoomed_flag';
const PANE =
  'active at_bottom at_left at_right at_top bottom current_command current_path dead dead_status format height id in_mode index input_off left marked ' +
  'marked_set mode pid pipe right search_string start_command synchronized tabs title top tty width';
const fields = (prefix: string, names: string) => names.split(' ').map((name) => `${prefix}_${name}`);
const SESSION_FIELDS = fields('session', SESSION);
const PANE_FIELDS = [
  ...SESSION_FIELDS,
  ...fields('window', WINDOW),
  ...fields('pane', PANE),
  ...'cursor_x cursor_y cursor_flag history_size history_limit history_bytes alternate_on scroll_region_upper scroll_region_lower'.split(
    ' ',
  ),
];
// libtmux's separator between fields.
const SEP = '\u241e';

/** Every row of a listing as an object of every field, as libtmux's objects hold them. */
async function fetchObjects(command: string, names: readonly string[], ...extra: string[]) {
  const out = await tmux(command, ...extra, '-F', names.map((name) => `#{${name}}`).join(SEP));
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => Object.fromEntries(line.split(SEP).map((value, i) => [names[i]!, value])));
}

/** The pane named by the call, from a fetch of every pane (libtmux's `server.panes.get(pane_id=...)`). */
async function resolvePane(paneId: unknown) {
  const pane = (await fetchObjects('list-panes', PANE_FIELDS, '-a')).find((each) => each.pane_id === paneId);
  if (!pane) throw new Error(`Pane not found: ${paneId}`);
  return pane;
}

const argv = (...args: string[]) => [TMUX, '-S', SOCKET, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');

type Args = Record<string, any>;
const tools: Record<string, (args: Args) => Promise<unknown>> = {
  list_sessions: async () => fetchObjects('list-sessions', SESSION_FIELDS),
  list_panes: async () => fetchObjects('list-panes', PANE_FIELDS, '-a'),
  get_pane_info: async ({ pane_id }) => resolvePane(pane_id),
  async capture_pane({ pane_id }) {
    await resolvePane(pane_id);
    return (await tmux('capture-pane', '-p', '-t', pane_id)).split('\n');
  },
  async send_keys({ pane_id, keys, literal, enter = true }) {
    await resolvePane(pane_id);
    await tmux('send-keys', '-t', pane_id, ...(literal ? ['-l'] : []), keys);
    if (enter) await tmux('send-keys', '-t', pane_id, 'Enter');
    return `Keys sent to pane ${pane_id}`;
  },
  async run_command({ pane_id, command, timeout = 30 }) {
    await resolvePane(pane_id);
    const id = randomUUID().replaceAll('-', '').slice(0, 10);
    const [channel, option] = [`r_${id}`, `@s_${id}`];
    const payload = ` (\n${command}\n); s=$?; ${argv('set-option', '-p', '-t', pane_id, option)} "$s"; ${argv('wait-for', '-S', channel)}`;
    await tmux('send-keys', '-t', pane_id, '-l', payload);
    await tmux('send-keys', '-t', pane_id, 'Enter');
    const began = Date.now();
    await run(TMUX, ['-S', SOCKET, 'wait-for', channel], { timeout: timeout * 1000 });
    const status = Number((await tmux('show-option', '-p', '-v', '-t', pane_id, option)).trim());
    await tmux('set-option', '-p', '-u', '-t', pane_id, option).catch(() => {});
    const output = (await tmux('capture-pane', '-p', '-J', '-t', pane_id)).split('\n').filter((line) => !line.includes(id));
    return { pane_id, exit_status: status, timed_out: false, elapsed_seconds: (Date.now() - began) / 1000, output };
  },
  async wait_for_text({ pane_id, patterns, timeout = 8, interval = 0.05 }) {
    const deadline = Date.now() + timeout * 1000;
    await resolvePane(pane_id);
    const state = async () =>
      (await tmux('display-message', '-p', '-t', pane_id, '#{history_size} #{cursor_y} #{pane_height}')).trim().split(' ').map(Number);
    const [entryHistory, entryCursor] = await state();
    const baseline = entryHistory! + entryCursor!;
    const entry = new Set((await tmux('capture-pane', '-p', '-J', '-t', pane_id, '-S', String(entryCursor))).split('\n'));
    const wanted = (patterns as string[]).map((pattern) => pattern.toLowerCase());
    for (;;) {
      const [history, , height] = await state();
      const start = baseline - history!;
      const rows = start >= height! ? [] : (await tmux('capture-pane', '-p', '-J', '-t', pane_id, '-S', String(start))).split('\n');
      const matched = rows.filter((row) => !entry.has(row) && wanted.some((pattern) => row.toLowerCase().includes(pattern)));
      if (matched.length > 0) return { outcome: 'matched', matched_lines: matched };
      if (Date.now() >= deadline) return { outcome: 'timed_out', matched_lines: [] };
      await sleep(interval * 1000);
    }
  },
};

const server = new Server({ name: 'python-libtmux-way', version: '0' }, { capabilities: { tools: { listChanged: false } } });
server.setRequestHandler('tools/list', async () => ({
  tools: Object.keys(tools).map((name) => ({ name, inputSchema: { type: 'object' as const } })),
}));
server.setRequestHandler('tools/call', async (request) => {
  const tool = tools[request.params.name];
  try {
    if (!tool) throw new Error(`no tool ${request.params.name}`);
    const result = await tool(request.params.arguments ?? {});
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: { result } };
  } catch (error) {
    return { content: [{ type: 'text', text: String(error) }], isError: true };
  }
});

process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
