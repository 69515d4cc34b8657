/** Suggestions for the python profile's template variables and prompt arguments, on the server socket_name names. */
import { EngineRegistry, listSockets } from '../../core/index.js';
import { tmuxIdCompleters, type Completer } from '../../mcp/surface/completions.js';

export function pythonCompleters(registry: EngineRegistry): Readonly<Record<string, Completer>> {
  const ids = tmuxIdCompleters((work, chosen) => registry.use(EngineRegistry.named(chosen.socket_name), work));
  // Other sockets are outside any scope of sessions: with one set, none are offered; with the view on, only those it shows.
  const socketName: Completer = async (value) =>
    registry.defaultEngine.scope.limitsSessions
      ? []
      : (await listSockets())
          .filter(
            (entry) =>
              entry.alive &&
              entry.socketName !== null &&
              entry.socketName.startsWith(value) &&
              registry.reaches({ socketName: entry.socketName }),
          )
          .map((entry) => entry.socketName!);
  return { pane_id: ids.pane, session_name: ids.sessionName, socket_name: socketName };
}

/** The completers for the variables of `uriTemplate` (or the names given) that have one. */
export function completersFor(all: Readonly<Record<string, Completer>>, names: readonly string[]): Record<string, Completer> {
  return Object.fromEntries(names.filter((name) => all[name]).map((name) => [name, all[name]!]));
}
