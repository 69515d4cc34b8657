/**
 * Where a call acts, for a question and for rules limited to a host or sessions: the targets its
 * arguments name (as the audit reads them: ids and refs, each on its host), with their session
 * asked of tmux, and sessions named outright. Asked only when a rule matched, never for the others.
 */
import { asFailure, getPane, getSession, getWindow, LOCAL_HOST, type EngineRegistry } from '../../core/index.js';
import { auditTargets } from '../tools/audit-targets.js';

export interface Place {
  readonly host: string;
  /** Undefined when it could not be told. */
  readonly session?: string;
  /** For a person: `local:%3 (session agent, window 1)`. */
  readonly label: string;
}

/** Finds the places of a call's arguments (`targets`: where its tool declares them); throws the scope's own failure when one is outside it. */
export type Locate = (args: unknown, targets: readonly string[]) => Promise<Place[]>;

/** Argument names that hold a session's name in some profile (python's session_name, libtmux's session). */
const SESSION_KEY = /^session(?:_?name)?$/i;

export function locator(registry: EngineRegistry): Locate {
  return async (args, targets) => {
    const ids = auditTargets(args, undefined, targets).ids;
    const places = await Promise.all(ids.map((key) => placeOf(registry, key)));
    for (const name of sessionNames(args)) {
      const colon = name.indexOf(':');
      const host = colon > 0 && registry.hostNames.includes(name.slice(0, colon)) ? name.slice(0, colon) : LOCAL_HOST;
      const session = host === LOCAL_HOST ? name : name.slice(colon + 1);
      places.push({ host, session, label: `${host}:${session} (session)` });
    }
    return places;
  };
}

async function placeOf(registry: EngineRegistry, key: string): Promise<Place> {
  const colon = key.indexOf(':');
  const host = key.slice(0, colon);
  const id = key.slice(colon + 1);
  try {
    const engine = registry.engineOn(host === LOCAL_HOST ? undefined : host);
    if (id.startsWith('$')) {
      const session = await getSession(engine, id);
      return { host, session: session.name, label: `${key} (session ${session.name})` };
    }
    const window = await getWindow(engine, id.startsWith('@') ? id : (await getPane(engine, id)).windowId);
    return { host, session: window.sessionName, label: `${key} (session ${window.sessionName}, window ${window.index})` };
  } catch (error) {
    // Outside the scope: the call would be refused anyway, so no one is asked. Anything else: shown as given.
    if (asFailure(error)?.kind === 'out_of_scope') throw error;
    return { host, label: key };
  }
}

/** Strings under session-name arguments that are names, not ids (a `$1` is read as a target already). */
function sessionNames(args: unknown): string[] {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return [];
  return Object.entries(args).flatMap(([key, value]) =>
    SESSION_KEY.test(key) && typeof value === 'string' && value !== '' && !value.includes('$') ? [value] : [],
  );
}
