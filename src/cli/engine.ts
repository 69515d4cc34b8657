/** The engine registry a Config describes: one place, so the server and `tmux-mcp call` start the same engine. */
import type { Config } from '../config.js';
import { EngineRegistry } from '../core/registry.js';

export function registryFor(config: Config): EngineRegistry {
  return new EngineRegistry({
    bin: config.tmuxBin,
    commandTimeoutMs: config.commandTimeoutMs,
    engine: { waitMaxMs: config.waitMaxMs, caller: config.caller },
    defaultLocation: { socketName: config.socketName, socketPath: config.socketPath },
    hosts: config.hosts,
  });
}
