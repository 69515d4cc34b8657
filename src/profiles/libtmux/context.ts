/** What every libtmux tool handler works with. */
import type { Engine } from '../../core/engine.js';

export interface LibtmuxContext {
  readonly engine: Engine;
}
