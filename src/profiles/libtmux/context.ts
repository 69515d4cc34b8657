/** What every libtmux tool handler works with. */
import type { Engine } from '../../core/index.js';

export interface LibtmuxContext {
  readonly engine: Engine;
}
