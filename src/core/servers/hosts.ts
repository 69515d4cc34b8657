/**
 * Hosts: tmux servers on other machines, reached over the user's OpenSSH, served beside the local
 * one. A target names its host in one of two ways, and a plain one means this machine:
 *  - a ref (and a cursor) carries the host it was issued for, so it always goes back there;
 *  - a tmux id or session name may be written `NAME:%3`, `NAME:@1`, `NAME:$0`, `NAME:work` for
 *    configured host NAME (tmux forbids `:` in session names, so this never clashes with one).
 * Ids in answers from a host are written the same way, so whatever a listing shows can be passed back.
 */
import { invalidArgument } from '../failure.js';
import { decodeRef, isRef } from '../targets/refs.js';
import { LOCAL_HOST } from './host-config.js';

/** Where a target points: its host (undefined: this machine) and the target as that host's tmux knows it. */
export interface RoutedTarget {
  readonly host: string | undefined;
  readonly target: string;
}

/** Reads the host out of one target; `hosts` are the configured names. Refs stay whole: the engine checks them. */
export function routeTarget(value: string, hosts: ReadonlySet<string>): RoutedTarget {
  if (isRef(value)) return { host: decodeRef(value)?.host, target: value };
  const colon = value.indexOf(':');
  if (colon > 0) {
    const name = value.slice(0, colon);
    if (name === LOCAL_HOST) return { host: undefined, target: value.slice(colon + 1) };
    if (hosts.has(name)) return { host: name, target: value.slice(colon + 1) };
  }
  return { host: undefined, target: value };
}

/** The one host several targets of a call agree on; a call acts on one host only. */
export function oneHost(routed: readonly RoutedTarget[], fields: readonly string[]): string | undefined {
  const hosts = new Set(routed.map((r) => r.host));
  if (hosts.size > 1) {
    throw invalidArgument(
      `${fields.join(', ')} point at different hosts (${[...hosts].map((h) => h ?? LOCAL_HOST).join(', ')}); one call acts on one host`,
      'Split the call: one per host.',
    );
  }
  return routed[0]?.host;
}

/** An id as seen from every host: `NAME:%3` on a host, `%3` here. */
export function qualify(host: string | undefined, id: string): string {
  return host === undefined || id === '' ? id : `${host}:${id}`;
}
