/** One typed, validated configuration, from argv and the environment. Bad values stop start-up with a message. */
import { checkTmuxBinary } from './tmux/binary.js';
import { TmuxError } from './tmux/errors.js';

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
  readonly socketSource: 'LIBTMUX_SOCKET_NAME' | 'LIBTMUX_SOCKET' | 'LIBTMUX_SOCKET_PATH' | 'default';
  /** Raw selection lists; the profile checks the names. Undefined means "not set". */
  readonly toolsets?: readonly string[];
  readonly tools?: readonly string[];
  readonly excludeTools?: readonly string[];
  /** Ceiling for any single wait, in milliseconds. */
  readonly waitMaxMs: number;
  /** Deadline for one tmux command. */
  readonly commandTimeoutMs: number;
  /** python profile: whether run_command keeps commands out of shell history by default (LIBTMUX_SUPPRESS_HISTORY). */
  readonly suppressHistory: boolean;
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
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--version' || arg === '-V') return { kind: 'version' };
    if (arg === '--profile') {
      profile = argv[++i];
      if (profile === undefined) throw new ConfigError('--profile needs a value: one of ' + PROFILES.join(', '));
    } else if (arg.startsWith('--profile=')) {
      profile = arg.slice('--profile='.length);
    } else {
      throw new ConfigError(`unknown argument "${arg}"; see tmux-mcp --help`);
    }
  }
  return { kind: 'serve', config: loadConfig(env, profile) };
}

export function loadConfig(env: NodeJS.ProcessEnv, profileArg?: string): Config {
  const profile = profileArg ?? nonEmpty(env.TMUX_MCP_PROFILE) ?? 'libtmux';
  if (!(PROFILES as readonly string[]).includes(profile)) {
    throw new ConfigError(`unknown profile "${profile}"; choose one of ${PROFILES.join(', ')}`);
  }
  for (const [name, instead] of Object.entries(RETIRED)) {
    if (env[name] !== undefined) throw new ConfigError(`${name} is no longer read; use ${instead}`);
  }
  // The python profile reads the socket name from LIBTMUX_SOCKET, as the Python server does.
  const nameVariable = profile === 'python' && nonEmpty(env.LIBTMUX_SOCKET) !== undefined ? 'LIBTMUX_SOCKET' : 'LIBTMUX_SOCKET_NAME';
  const socketName = nonEmpty(env[nameVariable]);
  const socketPath = nonEmpty(env.LIBTMUX_SOCKET_PATH);
  if (socketName !== undefined && socketPath !== undefined) {
    throw new ConfigError(`${nameVariable} and LIBTMUX_SOCKET_PATH are both set; set only one of them`);
  }
  if (socketName !== undefined && (socketName.includes('/') || socketName.includes('..'))) {
    throw new ConfigError(`${nameVariable} is a name, not a path; use LIBTMUX_SOCKET_PATH for a path`);
  }
  const python = profile === 'python';
  return {
    profile: profile as ProfileName,
    tmuxBin: nonEmpty(env.LIBTMUX_TMUX_BIN) ?? 'tmux',
    ...(socketPath !== undefined
      ? { socketPath, socketSource: 'LIBTMUX_SOCKET_PATH' as const }
      : { socketName: socketName ?? DEFAULT_SOCKET_NAME, socketSource: socketName ? nameVariable : ('default' as const) }),
    toolsets: list(env.LIBTMUX_TOOLSETS, 'LIBTMUX_TOOLSETS'),
    tools: list(env.LIBTMUX_TOOLS, 'LIBTMUX_TOOLS'),
    excludeTools: list(env.LIBTMUX_EXCLUDE_TOOLS, 'LIBTMUX_EXCLUDE_TOOLS'),
    // The Python server's ceiling: 30 s by default, held to 1..120 s rather than refused.
    waitMaxMs: python
      ? clamp(seconds(env.LIBTMUX_MCP_WAIT_MAX_SECONDS, 'LIBTMUX_MCP_WAIT_MAX_SECONDS', 30, -Infinity, Infinity), 1, 120) * 1000
      : seconds(env.LIBTMUX_MCP_WAIT_MAX_SECONDS, 'LIBTMUX_MCP_WAIT_MAX_SECONDS', 120, 1, 600) * 1000,
    commandTimeoutMs: seconds(env.LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS, 'LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS', 15, 1, 300) * 1000,
    suppressHistory: suppressHistory(env.LIBTMUX_SUPPRESS_HISTORY),
    caller: callerFrom(env),
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Unset or "1": on; "0": off; anything else stops start-up (without echoing the value). */
function suppressHistory(value: string | undefined): boolean {
  if (value === undefined || value === '1') return true;
  if (value === '0') return false;
  throw new ConfigError("LIBTMUX_SUPPRESS_HISTORY must be unset, '0', or '1'");
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
