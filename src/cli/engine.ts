/** The engine registry a Config describes: one place, so the server and `tmux-mcp call` start the same engine. */
import type { Config } from '../config.js';
import type { PaneObserver } from '../core/engine.js';
import { EngineRegistry } from '../core/registry.js';

/** `recorder`: told of every pane acted on (--record); absent, nothing is recorded. */
export function registryFor(config: Config, recorder?: PaneObserver): EngineRegistry {
  return new EngineRegistry({
    bin: config.tmuxBin,
    commandTimeoutMs: config.commandTimeoutMs,
    engine: { waitMaxMs: config.waitMaxMs, caller: config.caller, ...(recorder ? { recorder } : {}) },
    defaultLocation: { socketName: config.socketName, socketPath: config.socketPath },
    hosts: config.hosts,
  });
}
