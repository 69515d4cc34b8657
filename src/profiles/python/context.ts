/** What every python tool handler works with: the engines, by socket, and the settings that shape results. */
import type { Engine, EngineRegistry } from '../../core/index.js';

export interface PythonContext {
  readonly registry: EngineRegistry;
  /** run_command's default for suppress_history (LIBTMUX_SUPPRESS_HISTORY). */
  readonly suppressHistory: boolean;
}

/** A handler's view: the context plus the engine of the tmux server this call addresses. */
export interface PythonCall {
  readonly ctx: PythonContext;
  readonly engine: Engine;
  readonly signal: AbortSignal;
  progress(progress: number, total?: number, message?: string): Promise<void>;
}
