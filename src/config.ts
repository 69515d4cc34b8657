/** One typed, validated configuration, from argv and the environment. Bad values stop start-up with a message. */
import { checkTmuxBinary } from './tmux/binary.js';
import { TmuxError } from './tmux/errors.js';

import { HOST_NAME, type RemoteHost } from './core/hosts.js';

export const PROFILES = ['libtmux', 'python', 'julia'] as const;
export type ProfileName = (typeof PROFILES)[number];

/** Where tmux lives when nothing says otherwise: a private socket, never the user's server by accident. */
export const DEFAULT_SOCKET_NAME = 'libtmux-mcp';

export interface Config {
  readonly profile: ProfileName;
  readonly tmuxBin: string;
  readonly socketName?: string;
  readonly socketPath?: string;
  /** Which variable chose the socket, for the banner and error messages. */
  readonly socketSource: 'LIBTMUX_SOCKET_NAME' | 'LIBTMUX_SOCKET_PATH' | 'default';
  /** Raw selection lists; the profile checks the names. Undefined means "not set". */
  readonly toolsets?: readonly string[];
  readonly tools?: readonly string[];
  readonly excludeTools?: readonly string[];
  /** Ceiling for any single wait, in milliseconds. */
  readonly waitMaxMs: number;
  /** Deadline for one tmux command. */
  readonly commandTimeoutMs: number;
  /** Other hosts whose tmux this process serves over ssh (`--host`, TMUX_MCP_HOSTS); the local tmux stays the default. */
  readonly hosts: readonly RemoteHost[];
  /** The pane this server runs in, if it runs inside tmux (`TMUX_PANE`), and that server's pid (`TMUX`). */
  readonly caller?: { readonly paneId: string; readonly serverPid?: number; readonly socketPath?: string };
}

export class ConfigError extends Error {}

/** Variables older servers of the family read; set now, they would silently mean nothing, so they stop start-up. */
const RETIRED: Readonly<Record<string, string>> = {
  LIBTMUX_SAFETY: 'LIBTMUX_TOOLSETS (inspect, manage, execute, teardown)',
  LIBTMUX_MCP_TOOLS: 'LIBTMUX_TOOLS and LIBTMUX_EXCLUDE_TOOLS',
};

export type CliAction = { readonly kind: 'help' } | { readonly kind: 'version' } | { readonly kind: 'serve'; readonly config: Config };

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliAction {
  let profile: string | undefined;
  const hosts: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--version' || arg === '-V') return { kind: 'version' };
    if (arg === '--profile') {
      profile = argv[++i];
      if (profile === undefined) throw new ConfigError('--profile needs a value: one of ' + PROFILES.join(', '));
    } else if (arg.startsWith('--profile=')) {
      profile = arg.slice('--profile='.length);
    } else if (arg === '--host') {
      const value = argv[++i];
      if (value === undefined) throw new ConfigError('--host needs a value: NAME=SSH-DESTINATION');
      hosts.push(value);
    } else if (arg.startsWith('--host=')) {
      hosts.push(arg.slice('--host='.length));
    } else {
      throw new ConfigError(`unknown argument "${arg}"; see tmux-mcp --help`);
    }
  }
  return { kind: 'serve', config: loadConfig(env, profile, hosts) };
}

export function loadConfig(env: NodeJS.ProcessEnv, profileArg?: string, hostArgs: readonly string[] = []): Config {
  const profile = profileArg ?? nonEmpty(env.TMUX_MCP_PROFILE) ?? 'libtmux';
  if (!(PROFILES as readonly string[]).includes(profile)) {
    throw new ConfigError(`unknown profile "${profile}"; choose one of ${PROFILES.join(', ')}`);
  }
  for (const [name, instead] of Object.entries(RETIRED)) {
    if (env[name] !== undefined) throw new ConfigError(`${name} is no longer read; use ${instead}`);
  }
  const socketName = nonEmpty(env.LIBTMUX_SOCKET_NAME);
  const socketPath = nonEmpty(env.LIBTMUX_SOCKET_PATH);
  if (socketName !== undefined && socketPath !== undefined) {
    throw new ConfigError('LIBTMUX_SOCKET_NAME and LIBTMUX_SOCKET_PATH are both set; set only one of them');
  }
  if (socketName !== undefined && socketName.includes('/')) {
    throw new ConfigError('LIBTMUX_SOCKET_NAME is a name, not a path; use LIBTMUX_SOCKET_PATH for a path');
  }
  return {
    profile: profile as ProfileName,
    tmuxBin: nonEmpty(env.LIBTMUX_TMUX_BIN) ?? 'tmux',
    ...(socketPath !== undefined
      ? { socketPath, socketSource: 'LIBTMUX_SOCKET_PATH' as const }
      : { socketName: socketName ?? DEFAULT_SOCKET_NAME, socketSource: socketName ? ('LIBTMUX_SOCKET_NAME' as const) : ('default' as const) }),
    toolsets: list(env.LIBTMUX_TOOLSETS, 'LIBTMUX_TOOLSETS'),
    tools: list(env.LIBTMUX_TOOLS, 'LIBTMUX_TOOLS'),
    excludeTools: list(env.LIBTMUX_EXCLUDE_TOOLS, 'LIBTMUX_EXCLUDE_TOOLS'),
    waitMaxMs: seconds(env.LIBTMUX_MCP_WAIT_MAX_SECONDS, 'LIBTMUX_MCP_WAIT_MAX_SECONDS', 120, 1, 600) * 1000,
    commandTimeoutMs: seconds(env.LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS, 'LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS', 15, 1, 300) * 1000,
    hosts: hostsFrom(env, hostArgs, socketPath === undefined ? (socketName ?? DEFAULT_SOCKET_NAME) : DEFAULT_SOCKET_NAME),
    caller: callerFrom(env),
  };
}

/**
 * Checks that the tmux executable runs and is tmux 3.2 or newer, so a wrong LIBTMUX_TMUX_BIN stops
 * start-up with a message instead of failing every call later. Returns the version.
 */
export async function checkTmuxBin(config: Config, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    return await checkTmuxBinary(config.tmuxBin, env);
  } catch (error) {
    if (!(error instanceof TmuxError)) throw error;
    const source = nonEmpty(env.LIBTMUX_TMUX_BIN) !== undefined ? 'LIBTMUX_TMUX_BIN' : 'tmux on PATH';
    throw new ConfigError(`${source}: ${error.message}. ${error.hint}`);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** A comma list; set-but-empty means the empty list (for LIBTMUX_TOOLSETS: no toolsets). */
function list(value: string | undefined, variable: string): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(',').map((item) => item.trim());
  if (items.length === 1 && items[0] === '') return [];
  if (items.some((item) => item === '')) {
    throw new ConfigError(`${variable} has an empty entry in "${value}"; separate names with single commas`);
  }
  return items;
}

function seconds(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new ConfigError(`${name} must be a number of seconds from ${min} to ${max}`);
  return n;
}

/** `TMUX` is `socket_path,server_pid,session_index`; the path may hold commas, so read from the right. */
function callerFrom(env: NodeJS.ProcessEnv): Config['caller'] {
  const paneId = nonEmpty(env.TMUX_PANE);
  if (paneId === undefined || !/^%\d+$/.test(paneId)) return undefined;
  const parts = (env.TMUX ?? '').split(',');
  if (parts.length < 3) return { paneId };
  const pid = Number(parts[parts.length - 2]);
  return {
    paneId,
    ...(Number.isInteger(pid) ? { serverPid: pid } : {}),
    socketPath: parts.slice(0, -2).join(','),
  };
}

/**
 * Hosts from `--host` (repeatable) and TMUX_MCP_HOSTS (comma- or space-separated), each
 * `NAME=DESTINATION[#SOCKET]`: DESTINATION is anything ssh takes (an alias of ~/.ssh/config,
 * user@host, ssh://user@host:port); SOCKET a tmux socket name (-L) or, starting with `/`, a path
 * (-S) on that host, by default the same socket name as here.
 */
function hostsFrom(env: NodeJS.ProcessEnv, args: readonly string[], defaultSocketName: string): RemoteHost[] {
  const specs = [...(nonEmpty(env.TMUX_MCP_HOSTS)?.split(/[\s,]+/).filter(Boolean) ?? []), ...args];
  const sshConfig = nonEmpty(env.TMUX_MCP_SSH_CONFIG);
  const sshBin = nonEmpty(env.TMUX_MCP_SSH_BIN);
  const remoteTmux = nonEmpty(env.TMUX_MCP_REMOTE_TMUX);
  const hosts: RemoteHost[] = [];
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const name = spec.slice(0, Math.max(eq, 0));
    const [destination = '', socket] = spec.slice(eq + 1).split('#', 2);
    if (eq <= 0 || !HOST_NAME.test(name)) {
      throw new ConfigError(`host "${spec}" must be NAME=SSH-DESTINATION, NAME being 1-16 letters, digits, "_" or "-", starting with a letter`);
    }
    if (name === 'local') throw new ConfigError('"local" names this machine; give the host another name');
    if (destination === '' || destination.startsWith('-') || /\s/.test(destination)) {
      throw new ConfigError(`host ${name}: "${destination}" is not an ssh destination`);
    }
    if (hosts.some((host) => host.name === name)) throw new ConfigError(`host ${name} is configured twice`);
    if (socket !== undefined && (socket === '' || (!socket.startsWith('/') && (socket.includes('/') || socket.includes('..'))))) {
      throw new ConfigError(`host ${name}: "#${socket}" must be a tmux socket name or an absolute socket path`);
    }
    hosts.push({
      name,
      destination,
      ...(socket?.startsWith('/') ? { socketPath: socket } : { socketName: socket ?? defaultSocketName }),
      ...(sshConfig !== undefined ? { sshConfig } : {}),
      ...(sshBin !== undefined ? { sshBin } : {}),
      ...(remoteTmux !== undefined ? { remoteTmux } : {}),
    });
  }
  return hosts;
}
