/** The tmux servers of this user: find them (list_servers) and end one (kill_server). */
import { outside } from '../../../core/targets/scope-gate.js';
import { killServer, listSockets } from '../../../core/servers/servers.js';
import { listResult, pythonTool, textResult } from '../declare.js';
import { serverInfo } from '../servers.js';
import { serverSchema } from '../records.js';
import { params, SOCKET_NAME, stringList, wrapped, WRAPPED_TEXT } from '../schema.js';

export const listServersTool = pythonTool({
  name: 'list_servers',
  title: 'List tmux Servers',
  description:
    'Find the tmux servers running for this user: every live socket in tmux\'s socket directory ($TMUX_TMPDIR or /tmp, ' +
    'then tmux-<uid>), plus extra_socket_paths for servers started with -S elsewhere. Stale sockets are skipped, and no ' +
    'server is started to look. Then each configured host (--host) whose tmux answers, as socket_name "HOST:". ' +
    'Each row\'s socket_name is what the other tools take as socket_name.',
  toolset: 'inspect',
  input: params({ extra_socket_paths: stringList('Absolute paths of more sockets to check (servers started with tmux -S). Missing or dead ones are skipped.') }),
  output: wrapped({ items: serverSchema, type: 'array' }),
  async handler(args, { ctx }) {
    const scope = ctx.registry.defaultEngine.scope;
    if (scope.limitsSessions) throw outside(scope, 'list_servers looks at every tmux server of this user');
    const sockets = (await listSockets({ extraSocketPaths: args.extra_socket_paths ?? [] })).filter((s) => s.alive);
    const rows = await Promise.all(
      sockets.map((socket) =>
        ctx.registry.use(socket.socketName !== null ? { socketName: socket.socketName } : { socketPath: socket.socketPath }, async (engine) => ({
          ...(await serverInfo(engine, socket.socketName)),
          socket_path: socket.socketPath,
        })),
      ),
    );
    // Hosts after this machine's sockets: a host that is down or has no server is skipped like a stale socket.
    const hosts = await ctx.registry.everyServer(async (engine, host) => (host === undefined ? undefined : serverInfo(engine, `${host}:`)));
    return listResult([...rows, ...hosts.flatMap((answer) => (answer.ok && answer.value?.is_alive ? [answer.value] : []))]);
  },
});

export const killServerTool = pythonTool({
  name: 'kill_server',
  title: 'Kill tmux Server',
  description:
    'End a tmux server and every session, window and pane in it, with their programs. Refused for the server this MCP ' +
    'server runs inside. Pass socket_name to end another server; list_servers shows them. To end one session use kill_session.',
  toolset: 'teardown',
  input: params({ socket_name: SOCKET_NAME }),
  output: WRAPPED_TEXT,
  async handler(_args, { engine }) {
    await killServer(engine);
    return textResult('Server killed successfully');
  },
});
