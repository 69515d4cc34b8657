/** ServerInfo rows: whether a tmux server answers on a socket, where, which version, how many sessions. */
import { type Engine, listSessions, socketDirectory } from '../../core/index.js';

export async function serverInfo(engine: Engine, socketName: string | null) {
  const identity = await engine.identity();
  const sessions = identity ? await listSessions(engine) : [];
  const configured = engine.socket;
  const name = socketName ?? configured.name ?? null;
  const path = identity?.socketPath ?? configured.path ?? (name !== null ? `${socketDirectory()}/${name}` : null);
  return {
    is_alive: identity !== undefined,
    socket_name: name,
    socket_path: path,
    session_count: sessions.length,
    version: identity?.version ?? null,
  };
}
