/**
 * What one call touched: the panes, windows and sessions the engine resolved while it ran, each
 * with its host, for the audit log. Kept per call in an AsyncLocalStorage, so concurrent calls
 * never mix, and collected only when someone asked (the audit is on); otherwise noting is one
 * lookup that finds no store.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { LOCAL_HOST } from './hosts.js';

/** Most targets one call records; a search over a thousand panes notes how many more there were. */
export const MAX_TOUCHED = 64;

export interface Touched {
  /** `host:id` (`local:%3`, `gpu:@1`, `local:$0`), in the order first resolved. */
  readonly ids: Set<string>;
  /** Targets past MAX_TOUCHED, not listed. */
  more: number;
}

const current = new AsyncLocalStorage<Touched>();

/** Notes that the running call resolved `id` on `host` (undefined: this machine). */
export function noteTouched(host: string | undefined, id: string): void {
  const touched = current.getStore();
  if (!touched) return;
  const key = `${host ?? LOCAL_HOST}:${id}`;
  if (touched.ids.has(key)) return;
  if (touched.ids.size >= MAX_TOUCHED) touched.more++;
  else touched.ids.add(key);
}

/**
 * Runs `work` collecting what it touches into `touched`; a call nested in another (a batch item)
 * collects its own, and what it touched counts for the call around it too.
 */
export async function collectTouched<T>(touched: Touched, work: () => Promise<T>): Promise<T> {
  const outer = current.getStore();
  try {
    return await current.run(touched, work);
  } finally {
    if (outer) {
      for (const key of touched.ids) {
        if (outer.ids.has(key)) continue;
        if (outer.ids.size >= MAX_TOUCHED) outer.more++;
        else outer.ids.add(key);
      }
      outer.more += touched.more;
    }
  }
}
