/** ServerInfo rows: whether a tmux server answers on a socket, where, which version, how many sessions. */
import type { Engine } from '../../core/engine.js';
import { socketDirectory } from '../../core/servers/registry.js';

export async function serverInfo(engine: Engine, socketName: string | null) {
  const identity = await engine.identity();
  const sessions = identity ? await engine.listSessions() : [];
  const configured = engine.tmux.globalArgs;
  const name = socketName ?? flag(configured, '-L');
  const path = identity?.socketPath ?? flag(configured, '-S') ?? (name !== null ? `${socketDirectory()}/${name}` : null);
  return {
    is_alive: identity !== undefined,
    socket_name: name,
    socket_path: path,
    session_count: sessions.length,
    version: identity?.version ?? null,
  };
}

function flag(args: readonly string[], name: string): string | null {
  const at = args.indexOf(name);
  return at === -1 ? null : (args[at + 1] ?? null);
}
