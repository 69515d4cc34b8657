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
  readonly socketSource: 'LIBTMUX_SOCKET_NAME' | 'LIBTMUX_SOCKET_PATH' | 'default';
  /** Raw selection lists; the profile checks the names. Undefined means "not set". */
  readonly toolsets?: readonly string[];
  readonly tools?: readonly string[];
  readonly excludeTools?: readonly string[];
  /** Ceiling for any single wait, in milliseconds. */
  readonly waitMaxMs: number;
  /** Deadline for one tmux command. */
  readonly commandTimeoutMs: number;
  /** The pane this server runs in, if it runs inside tmux (`TMUX_PANE`), and that server's pid (`TMUX`). */
  readonly caller?: { readonly paneId: string; readonly serverPid?: number; readonly socketPath?: string };
  /** Set by `--http`: serve Streamable HTTP instead of stdio. */
  readonly http?: HttpConfig;
}

export interface HttpConfig {
  readonly host: string;
  /** 0 lets the system pick a free port (the banner names it). */
  readonly port: number;
  /** The bearer token given by TMUX_MCP_TOKEN; undefined when it comes from a file or is generated. */
  readonly token?: string;
  /** `--token-file`: the token is the file's content, trimmed. */
  readonly tokenFile?: string;
  /** `--allow-host`: hostnames accepted in Host and Origin besides the loopback names. */
  readonly allowedHostnames: readonly string[];
}

/** Where `--http PORT` listens when no host is given: loopback only. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';

export class ConfigError extends Error {}

/** Variables older servers of the family read; set now, they would silently mean nothing, so they stop start-up. */
const RETIRED: Readonly<Record<string, string>> = {
  LIBTMUX_SAFETY: 'LIBTMUX_TOOLSETS (inspect, manage, execute, teardown)',
  LIBTMUX_MCP_TOOLS: 'LIBTMUX_TOOLS and LIBTMUX_EXCLUDE_TOOLS',
};

export type CliAction = { readonly kind: 'help' } | { readonly kind: 'version' } | { readonly kind: 'serve'; readonly config: Config };

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliAction {
  let profile: string | undefined;
  let listen: string | undefined;
  let tokenFile: string | undefined;
  const allowHosts: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--version' || arg === '-V') return { kind: 'version' };
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (what: string): string => {
      const next = inline ?? argv[++i];
      if (next === undefined || next === '') throw new ConfigError(`${flag} needs a value: ${what}`);
      return next;
    };
    if (flag === '--profile') profile = value('one of ' + PROFILES.join(', '));
    else if (flag === '--http') listen = value('[HOST:]PORT, e.g. 8765 or 127.0.0.1:8765');
    else if (flag === '--token-file') tokenFile = value('a file holding the bearer token');
    else if (flag === '--allow-host') allowHosts.push(...value('a hostname, or a comma list of them').split(',').map((h) => h.trim()).filter(Boolean));
    else throw new ConfigError(`unknown argument "${arg}"; see tmux-mcp --help`);
  }
  if (listen === undefined && (tokenFile !== undefined || allowHosts.length > 0)) {
    throw new ConfigError('--token-file and --allow-host apply to --http only');
  }
  const config = loadConfig(env, profile);
  return { kind: 'serve', config: listen === undefined ? config : { ...config, http: httpConfig(listen, env, tokenFile, allowHosts) } };
}

function httpConfig(listen: string, env: NodeJS.ProcessEnv, tokenFile: string | undefined, allowHosts: string[]): HttpConfig {
  const match = /^(?:(\[[^\]]+\]|[^:\[\]]+):)?(\d{1,5})$/.exec(listen);
  const port = Number(match?.[2]);
  if (!match || port > 65535) throw new ConfigError(`--http takes [HOST:]PORT (e.g. 8765, 127.0.0.1:8765, [::1]:8765), not "${listen}"`);
  const host = match[1]?.replace(/^\[(.*)\]$/, '$1') ?? DEFAULT_HTTP_HOST;
  const token = nonEmpty(env.TMUX_MCP_TOKEN);
  if (token !== undefined && tokenFile !== undefined) throw new ConfigError('TMUX_MCP_TOKEN and --token-file are both set; give the token one way');
  if (!isLoopback(host) && token === undefined && tokenFile === undefined) {
    throw new ConfigError(`--http ${listen} listens beyond this machine: choose a token (TMUX_MCP_TOKEN or --token-file) instead of a generated one`);
  }
  // A specific listen address is how clients will name the server, so it is an allowed Host.
  const listenName = host.includes(':') ? `[${host}]` : host;
  const wildcard = host === '0.0.0.0' || host === '::';
  return {
    host,
    port,
    ...(token !== undefined ? { token } : {}),
    ...(tokenFile !== undefined ? { tokenFile } : {}),
    allowedHostnames: [...new Set([...allowHosts, ...(wildcard || isLoopback(host) ? [] : [listenName])])],
  };
}

/** Loopback addresses and names: only this machine can reach them. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export function loadConfig(env: NodeJS.ProcessEnv, profileArg?: string): Config {
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
