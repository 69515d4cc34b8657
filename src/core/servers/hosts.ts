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

/** A host's configured name: short, and unable to look like a tmux id or a path. */
export const HOST_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,15}$/;

/** The name that always means this machine's tmux (`local:%3` is `%3`). */
export const LOCAL_HOST = 'local';

export interface RemoteHost {
  readonly name: string;
  /** What ssh connects to: an alias of the user's ssh config, `user@host`, or `ssh://user@host:port`. */
  readonly destination: string;
  /** The tmux socket on that host: a name (`-L`) or a path (`-S`). */
  readonly socketName?: string;
  readonly socketPath?: string;
  /** `ssh -F FILE` instead of ~/.ssh/config (TMUX_MCP_SSH_CONFIG). */
  readonly sshConfig?: string;
  /** The ssh client (TMUX_MCP_SSH_BIN; default `ssh`). */
  readonly sshBin?: string;
  /** tmux on that host (TMUX_MCP_REMOTE_TMUX; default `tmux` on the remote PATH). */
  readonly remoteTmux?: string;
  /** How long a connection may be silent while a call waits on it (TMUX_MCP_HOST_SILENCE_SECONDS). */
  readonly silenceMs?: number;
}

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
