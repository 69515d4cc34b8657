/** What names and configures a host (hosts.ts routes targets to one); read at start-up, before the engine loads. */

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
