/** The engine registry a Config describes: one place, so the server and `tmux-mcp call` start the same engine. */
import type { Config } from '../config.js';
import type { PaneObserver } from '../core/engine.js';
import { EngineRegistry } from '../core/servers/registry.js';
import { Scope } from '../core/targets/scope.js';
import { PANE_ID } from '../core/ids.js';
import { paneInScope } from '../core/read/listings.js';

/** `recorder`: told of every pane acted on (--record); absent, nothing is recorded. */
export function registryFor(config: Config, recorder?: PaneObserver): EngineRegistry {
  // One scope for every engine (this machine and each host): one rule, decided in core.
  const scope = new Scope({ patterns: config.allowSessions, ...(config.caller ? { caller: config.caller } : {}) });
  return new EngineRegistry({
    bin: config.tmuxBin,
    commandTimeoutMs: config.commandTimeoutMs,
    engine: {
      waitMaxMs: config.waitMaxMs,
      caller: config.caller,
      scope,
      ...(config.readOnly ? { readOnly: true } : {}),
      ...(recorder ? { recorder: scope.active ? scopedObserver(recorder) : recorder } : {}),
    },
    defaultLocation: { socketName: config.socketName, socketPath: config.socketPath },
    hosts: config.hosts,
  });
}

/**
 * Under a scope, a pane observer (the recorder) hears only of panes in scope: a call may name a
 * pane outside before the scope refuses it, and nothing outside is recorded. Session and window
 * targets pass: the observer finds their pane through the engine, whose commands the scope checks.
 */
function scopedObserver(observer: PaneObserver): PaneObserver {
  return {
    actedOn(engine, target, sessionId) {
      if (!PANE_ID.test(target)) return observer.actedOn(engine, target, sessionId);
      paneInScope(engine, target).then(
        (inScope) => inScope && observer.actedOn(engine, target, sessionId),
        () => {},
      );
    },
  };
}
