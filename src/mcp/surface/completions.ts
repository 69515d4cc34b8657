/**
 * completion/complete for every profile: a prompt argument or a resource-template variable may carry a
 * Completer, and the server advertises `completions` only when one does. Also the completers for tmux
 * ids (panes, windows, sessions) that profiles attach to their arguments.
 */
import type { Server } from '@modelcontextprotocol/server';
import { type Engine, listPanes, listSessions, listWindows } from '../../core/index.js';

/** Suggestions for a value being typed; `arguments` holds the other arguments already chosen. */
export type Completer = (value: string, context: { readonly arguments: Readonly<Record<string, string>> }) => Promise<readonly string[]>;

/** The protocol's cap on values in one completion answer. */
const MAX_COMPLETIONS = 100;

/** Where completers live: prompt arguments by prompt name, template variables by template. */
export interface Completable {
  promptArgument(prompt: string, argument: string): Completer | undefined;
  templateVariable(uriTemplate: string, variable: string): Completer | undefined;
}

export function serveCompletions(server: Server, completable: Completable): void {
  server.setRequestHandler('completion/complete', async (request) => {
    const { ref, argument, context } = request.params;
    const completer =
      ref.type === 'ref/prompt'
        ? completable.promptArgument(ref.name, argument.name)
        : completable.templateVariable(ref.uri, argument.name);
    // Clients ask as the user types: a ref or argument with nothing to suggest gets no suggestions, not an error.
    const values = completer ? await completer(argument.value, { arguments: context?.arguments ?? {} }).catch(() => []) : [];
    return { completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS } };
  });
}

/**
 * Runs `work` on the engine of the tmux server the other arguments already chosen point at (a
 * profile whose calls name a server, like the python profile's socket_name, reads it from them).
 */
export type EngineRunner = <T>(work: (engine: Engine) => Promise<T>, chosen: Readonly<Record<string, string>>) => Promise<T>;

/** Completers for tmux ids: each suggests what starts with the typed value, on the server `run` picks. */
export function tmuxIdCompleters(run: EngineRunner): {
  readonly pane: Completer;
  readonly window: Completer;
  readonly session: Completer;
  readonly sessionName: Completer;
} {
  const from =
    (list: (engine: Engine) => Promise<string[]>): Completer =>
    async (value, { arguments: chosen }) =>
      startingWith(value, await run(list, chosen));
  return {
    pane: from(async (engine) => (await listPanes(engine)).map((pane) => pane.id)),
    window: from(async (engine) => (await listWindows(engine)).map((window) => window.id)),
    // A session is named by its id or its name; both are offered.
    session: from(async (engine) => (await listSessions(engine)).flatMap((session) => [session.id, session.name])),
    sessionName: from(async (engine) => (await listSessions(engine)).map((session) => session.name)),
  };
}

/** The candidates that start with `value`, without repeats, in tmux's natural order (%2 before %10). */
function startingWith(value: string, candidates: readonly string[]): string[] {
  return [...new Set(candidates.filter((candidate) => candidate.startsWith(value)))].sort((a, b) =>
    a.localeCompare(b, 'en', { numeric: true }),
  );
}
