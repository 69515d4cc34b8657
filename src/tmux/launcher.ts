/**
 * How a tmux process is started: here, or on another host through the user's own OpenSSH client.
 * The control-mode client and the spawn fallback both take a launcher, so one client serves both.
 *
 * Over ssh the remote command line is read by the remote user's login shell, so every word is
 * POSIX single-quoted: nothing in it is re-split, expanded or run by that shell.
 */
import { TmuxHostError } from './errors.js';

export interface Launch {
  readonly file: string;
  readonly args: readonly string[];
}

export interface Launcher {
  /** The configured host name, absent for this machine. */
  readonly host?: string;
  /** For messages: the tmux binary, or `ssh DEST`. */
  readonly label: string;
  /** What ssh connects to, for a host. */
  readonly destination?: string;
  /**
   * For a host: how long a control connection may stay silent while something waits on it before
   * it counts as dropped (a link can die without a word). Undefined here: a local pipe cannot.
   */
  readonly silenceMs?: number;
  /**
   * For a host: how long connecting may take in all (ssh's ConnectTimeout covers the TCP connect and
   * the host's first word; this bounds the rest: authentication and tmux's answer to the attach).
   */
  readonly connectMs?: number;
  /** The process that runs `tmux ...tmuxArgs`. */
  launch(tmuxArgs: readonly string[]): Launch;
  /**
   * The error a failed process means when it is not tmux's own (ssh could not connect or
   * authenticate), or undefined when tmux ran and the failure is tmux's.
   */
  transportError(code: number | null, stderr: string): Error | undefined;
}

export function localLauncher(bin: string): Launcher {
  return {
    label: bin,
    launch: (tmuxArgs) => ({ file: bin, args: [...tmuxArgs] }),
    transportError: () => undefined,
  };
}

export interface SshTarget {
  /** The name the host is configured under (`--host NAME=...`). */
  readonly host: string;
  /** What ssh connects to: an alias of the user's ssh config, `user@host`, or `ssh://user@host:port`. */
  readonly destination: string;
  /** The ssh client (default `ssh` on PATH). */
  readonly sshBin?: string;
  /** An ssh config file to use instead of ~/.ssh/config (`ssh -F`). */
  readonly sshConfig?: string;
  /** tmux on the far side (default `tmux` on the remote PATH). */
  readonly remoteTmux?: string;
  /** Bounds ssh's own connect (`ConnectTimeout`), in milliseconds. */
  readonly connectTimeoutMs: number;
  /** See Launcher.silenceMs (default DEFAULT_SILENCE_MS). */
  readonly silenceMs?: number;
}

/** How long a host's connection may be silent while a call waits on it: a drop is noticed within about a second. */
export const DEFAULT_SILENCE_MS = 750;

/**
 * ssh's ConnectTimeout for a host, at most: a host that accepts the connection and never answers
 * (firewalled, powered off, a hung sshd) is given up after this, not after the command timeout.
 */
export const HOST_CONNECT_MS = 5000;

/** ssh exits with 255 for its own failures (connect, host key, authentication); anything else is the remote command's. */
const SSH_FAILED = 255;

export function sshLauncher(target: SshTarget): Launcher {
  if (target.destination === '' || target.destination.startsWith('-')) {
    throw new TypeError(`ssh destination ${JSON.stringify(target.destination)} for host ${target.host} is not a destination`);
  }
  const sshBin = target.sshBin ?? 'ssh';
  const connectSeconds = Math.max(1, Math.ceil(Math.min(target.connectTimeoutMs, HOST_CONNECT_MS) / 1000));
  const options = [
    '-T', // no terminal: control mode speaks lines, and a pty would echo and translate them
    '-o',
    'BatchMode=yes', // never a prompt: no password, no host-key question
    '-o',
    `ConnectTimeout=${connectSeconds}`,
    // A link that dies without a word (no FIN, no RST) would leave ssh waiting forever. Control
    // connections notice it themselves within the silence limit (see ControlClient); keepalives end
    // ssh anyway after 10-15 s, for the spawned commands (wait-for, buffer loads) and idle links.
    '-o',
    'ServerAliveInterval=5',
    '-o',
    'ServerAliveCountMax=2',
    ...(target.sshConfig !== undefined ? ['-F', target.sshConfig] : []),
  ];
  const remoteTmux = target.remoteTmux ?? 'tmux';
  return {
    host: target.host,
    label: `ssh ${target.destination}`,
    destination: target.destination,
    silenceMs: target.silenceMs ?? DEFAULT_SILENCE_MS,
    connectMs: Math.min(target.connectTimeoutMs, 2 * connectSeconds * 1000),
    launch: (tmuxArgs) => ({
      file: sshBin,
      args: [...options, target.destination, '--', remoteCommandLine([remoteTmux, ...tmuxArgs])],
    }),
    transportError: (code, stderr) => (code === SSH_FAILED ? TmuxHostError.ssh(target.host, target.destination, stderr) : undefined),
  };
}

/** One word for a POSIX shell, taken literally: single quotes, with each `'` written as `'\''`. */
export function shellQuote(word: string): string {
  if (word.includes('\0')) throw new TypeError('arguments cannot contain NUL bytes');
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command line the remote login shell runs: exactly `argv`, word for word. */
export function remoteCommandLine(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}
