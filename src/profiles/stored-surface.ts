/**
 * The first answers' surface as the build stored it (scripts/store-surfaces.ts), for the
 * configurations it built: read with no engine or profile loaded, so that start-up over stdio
 * answers `initialize` and `tools/list` first and loads them after. A configuration the build did
 * not store is answered from its profile, built first; nothing else differs.
 */
import { readFileSync } from 'node:fs';
import type { Config } from '../config.js';
import type { FirstSurface } from '../mcp/surface/listing.js';

/** Configuration no profile's surface depends on (test/unit/stored-surface.test.ts varies each); the rest is the key. */
export const SURFACE_FREE = [
  'tmuxBin', 'socketName', 'socketPath', 'commandTimeoutMs', 'waitMaxMs', 'hosts', 'caller', 'allowSessions', 'idleGc', 'http', 'record', 'audit', 'view', 'approvals',
] as const satisfies ReadonlyArray<keyof Config>;

export interface StoredSurface {
  readonly surface: FirstSurface;
  /** The banner's words on which tools are in force. */
  readonly selectionSummary: string;
}

/**
 * A stored surface's file: one line of JSON (all but the listing, the rules' methods as a list),
 * then the listing's JSON text, which is written out as read.
 */
type HeadJson = { selectionSummary: string; surface: Omit<FirstSurface, 'toolsJson' | 'rules'> & { rules?: Omit<NonNullable<FirstSurface['rules']>, 'methods'> & { methods: string[] } } };

/** Where the build writes them: beside the bundle. From the sources (tests, the bench's in-process runs) there are none. */
export const SURFACES_DIR = new URL('./surfaces/', import.meta.url);
export const INDEX_FILE = 'index.json';

/** Which stored surface serves a configuration: all of it but the surface-free fields. */
export function surfaceKey(config: Config): string {
  const keyed: Record<string, unknown> = { ...config };
  for (const field of SURFACE_FREE) delete keyed[field];
  return JSON.stringify(keyed);
}

export function storedSurface(config: Config, dir: URL = SURFACES_DIR): StoredSurface | undefined {
  let name: string | undefined;
  try {
    const index = JSON.parse(readFileSync(new URL(INDEX_FILE, dir), 'utf8')) as Record<string, string>;
    name = index[surfaceKey(config)];
    if (name === undefined) return undefined;
    return fromFile(readFileSync(new URL(name, dir), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && name === undefined) return undefined; // not built
    throw error;
  }
}

export function surfaceFile(stored: StoredSurface): string {
  const { toolsJson, rules, ...surface } = stored.surface;
  const head: HeadJson = { selectionSummary: stored.selectionSummary, surface: { ...surface, ...(rules ? { rules: { ...rules, methods: [...rules.methods] } } : {}) } };
  return `${JSON.stringify(head)}\n${toolsJson}`;
}

function fromFile(text: string): StoredSurface {
  const newline = text.indexOf('\n');
  const head = JSON.parse(text.slice(0, newline)) as HeadJson;
  const { rules, ...surface } = head.surface;
  return {
    selectionSummary: head.selectionSummary,
    surface: { ...surface, toolsJson: text.slice(newline + 1), ...(rules ? { rules: { ...rules, methods: new Set(rules.methods) } } : {}) },
  };
}
