/** Reads argv and the environment into one typed, validated Config (src/config.ts). Bad values stop start-up with a message. */
import { resolve } from 'node:path';
import { HOST_NAME, LOCAL_HOST, type RemoteHost } from '../core/servers/host-config.js';
import { PANE_ID } from '../core/ids.js';
import { parseSessionPatterns, ScopeError, type SessionPattern } from '../core/targets/scope.js';
import {
  ConfigError,
  DEFAULT_HTTP_HOST,
  DEFAULT_APPROVE_TIMEOUT_SECONDS,
  DEFAULT_RECORD_MAX_MB,
  DEFAULT_SOCKET_NAME,
  PROFILES,
  type ApprovalConfig,
  type AuditConfig,
  type Config,
  type HttpConfig,
  type JuliaOptions,
  type ProfileName,
} from '../config.js';

/** The julia profile's flags that take a value, and those that repeat. */
const JULIA_VALUE_FLAGS = ['--tool', '--caller-pane', '--allow-pane', '--timeout', '--workers', '--capacity'] as const;
const JULIA_REPEATABLE = new Set(['--tool', '--allow-pane']);
const MAX_ALLOWED_PANES = 256;

/** Variables older servers of the family read; set now, they would silently mean nothing, so they stop start-up. */
const RETIRED: Readonly<Record<string, string>> = {
  LIBTMUX_SAFETY: 'LIBTMUX_TOOLSETS (inspect, manage, execute, teardown)',
  LIBTMUX_MCP_TOOLS: 'LIBTMUX_TOOLS and LIBTMUX_EXCLUDE_TOOLS',
};

export type CliAction = { readonly kind: 'help' } | { readonly kind: 'version' } | { readonly kind: 'serve'; readonly config: Config };

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliAction {
  let profile: string | undefined;
  const hosts: string[] = [];
  let listen: string | undefined;
  let tokenFile: string | undefined;
  const allowHosts: string[] = [];
  const socket: { path?: string; name?: string; bin?: string } = {};
  const julia = new Map<string, string[]>();
  let allowCreate = false;
  const allowSessions: string[] = [];
  let readOnly = false;
  const oversight: { audit?: string; redact: string[]; view?: string } = { redact: [] };
  const record: { dir?: string; maxMb?: string } = {};
  const approve: { rules: string[]; timeout?: string; startPaused?: true } = { rules: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--version' || arg === '-V') return { kind: 'version' };
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const value = (what = 'see tmux-mcp --help'): string => {
      const next = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (next === undefined || next === '') throw new ConfigError(`${flag} needs a value: ${what}`);
      if (next.includes('\0')) throw new ConfigError(`${flag} must not contain NUL`);
      return next;
    };
    const once = <T>(current: T | undefined, next: T): T => {
      if (current !== undefined) throw new ConfigError(`${flag} is given twice; give it once`);
      return next;
    };
    if (flag === '--profile') profile = once(profile, value('one of ' + PROFILES.join(', ')));
    else if (flag === '--http') listen = once(listen, value('[HOST:]PORT, e.g. 8765 or 127.0.0.1:8765'));
    else if (flag === '--token-file') tokenFile = once(tokenFile, value('a file holding the bearer token'));
    else if (flag === '--allow-host')
      allowHosts.push(
        ...value('a hostname, or a comma list of them')
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean),
      );
    else if (flag === '--socket') socket.path = once(socket.path, value('a tmux socket path'));
    else if (flag === '--socket-name') socket.name = once(socket.name, value('a tmux socket name'));
    else if (flag === '--tmux') socket.bin = once(socket.bin, value('a tmux executable'));
    else if (flag === '--host') hosts.push(value('NAME=SSH-DESTINATION'));
    else if (flag === '--allow-session') allowSessions.push(value('a session name, a prefix ending in *, or HOST:NAME; or a comma list'));
    else if (flag === '--read-only' && eq === -1) readOnly = once(readOnly || undefined, true);
    else if (flag === '--record') record.dir = once(record.dir, value('a directory for the pane recordings'));
    else if (flag === '--record-max-mb') record.maxMb = once(record.maxMb, value('the largest recording file, in MB'));
    else if (flag === '--allow-create' && eq === -1) allowCreate = once(allowCreate || undefined, true);
    else if (flag === '--audit') oversight.audit = once(oversight.audit, value('a file to append the audit log to'));
    else if (flag === '--audit-redact') oversight.redact.push(value('a regular expression'));
    else if (flag === '--view') oversight.view = once(oversight.view, value('[HOST:]PORT, e.g. 8766 or 127.0.0.1:8766'));
    else if (flag === '--approve') approve.rules.push(value('tool:GLOB, destructive or text:REGEX'));
    else if (flag === '--approve-timeout') approve.timeout = once(approve.timeout, value('seconds, 1 to 3600'));
    else if (flag === '--start-paused' && eq === -1) approve.startPaused = once(approve.startPaused, true);
    else if ((JULIA_VALUE_FLAGS as readonly string[]).includes(flag)) {
      const seen = julia.get(flag) ?? [];
      if (seen.length > 0 && !JULIA_REPEATABLE.has(flag)) throw new ConfigError(`${flag} is given twice; give it once`);
      julia.set(flag, [...seen, value()]);
    } else throw new ConfigError(`unknown argument "${arg}"; see tmux-mcp --help`);
  }
  const view = oversight.view ?? nonEmpty(env.TMUX_MCP_VIEW);
  if (listen === undefined && view === undefined && (tokenFile !== undefined || allowHosts.length > 0)) {
    throw new ConfigError('--token-file and --allow-host apply to --http and --view only');
  }
  const flagged = withSocketFlags(loadConfig(env, profile), socket);
  // Hosts read the socket name in force (flags included) as their default.
  const withHosts = {
    ...flagged,
    hosts: hostsFrom(env, hosts, flagged.socketPath === undefined ? (flagged.socketName ?? DEFAULT_SOCKET_NAME) : DEFAULT_SOCKET_NAME),
  };
  const loaded = { ...withHosts, ...scopeConfig(env, allowSessions, readOnly, withHosts.hosts) };
  const served = listen === undefined ? loaded : { ...loaded, http: httpConfig(listen, env, tokenFile, allowHosts) };
  const recording = recordConfig(record, env);
  const approvals = approvalConfig(approve, view !== undefined, env);
  const config = {
    ...served,
    ...(recording === undefined ? {} : { record: recording }),
    ...oversightConfig(oversight, view, env, tokenFile, allowHosts),
    ...(approvals ? { approvals } : {}),
  };
  if (config.profile !== 'julia') {
    const stray = [...julia.keys(), ...(allowCreate ? ['--allow-create'] : [])];
    if (stray.length > 0) throw new ConfigError(`${stray.join(', ')}: only the julia profile takes these; add --profile julia`);
    return { kind: 'serve', config };
  }
  return { kind: 'serve', config: { ...config, julia: juliaOptions(julia, allowCreate, env) } };
}

/** `--allow-session` (flags win over TMUX_MCP_ALLOW_SESSIONS) and `--read-only` (or TMUX_MCP_READ_ONLY=1). */
function scopeConfig(
  env: NodeJS.ProcessEnv,
  flags: readonly string[],
  readOnlyFlag: boolean,
  hosts: readonly RemoteHost[],
): Pick<Config, 'allowSessions' | 'readOnly'> {
  const values = flags.length > 0 ? flags : nonEmpty(env.TMUX_MCP_ALLOW_SESSIONS) !== undefined ? [env.TMUX_MCP_ALLOW_SESSIONS!] : [];
  let allowSessions: SessionPattern[];
  try {
    allowSessions = parseSessionPatterns(values);
  } catch (error) {
    if (error instanceof ScopeError)
      throw new ConfigError(`${flags.length > 0 ? '--allow-session' : 'TMUX_MCP_ALLOW_SESSIONS'}: ${error.message}`);
    throw error;
  }
  for (const pattern of allowSessions) {
    if (pattern.host !== undefined && pattern.host !== LOCAL_HOST && !hosts.some((h) => h.name === pattern.host)) {
      throw new ConfigError(
        `allowed session "${pattern.text}" names host "${pattern.host}", which is not configured (--host ${pattern.host}=...)`,
      );
    }
  }
  const variable = env.TMUX_MCP_READ_ONLY;
  if (variable !== undefined && variable !== '' && variable !== '0' && variable !== '1')
    throw new ConfigError("TMUX_MCP_READ_ONLY must be unset, '0', or '1'");
  return { allowSessions, readOnly: readOnlyFlag || variable === '1' };
}

/**
 * `--approve` (repeatable; else TMUX_MCP_APPROVE, one rule a line, or a comma list when it has no line
 * break), `--approve-timeout` (TMUX_MCP_APPROVE_TIMEOUT) and `--start-paused` (TMUX_MCP_START_PAUSED=1).
 * With --view the pause is always at hand, so approvals exist then even without a rule.
 */
function approvalConfig(
  flags: { rules: string[]; timeout?: string; startPaused?: true },
  view: boolean,
  env: NodeJS.ProcessEnv,
): ApprovalConfig | undefined {
  const listed = nonEmpty(env.TMUX_MCP_APPROVE);
  const rules =
    flags.rules.length > 0
      ? flags.rules
      : listed === undefined
        ? []
        : (listed.includes('\n') ? listed.split(/\r?\n/) : listed.split(',')).map((rule) => rule.trim()).filter(Boolean);
  const paused = env.TMUX_MCP_START_PAUSED;
  if (paused !== undefined && paused !== '' && paused !== '0' && paused !== '1')
    throw new ConfigError("TMUX_MCP_START_PAUSED must be unset, '0', or '1'");
  const startPaused = flags.startPaused === true || paused === '1';
  const timeout = flags.timeout ?? nonEmpty(env.TMUX_MCP_APPROVE_TIMEOUT);
  if (startPaused && !view) throw new ConfigError('--start-paused pauses calls until Resume in the live view; add --view');
  if (rules.length === 0 && !view) {
    if (timeout !== undefined) throw new ConfigError('--approve-timeout applies to --approve and --view; give one of them');
    return undefined;
  }
  const seconds = timeout === undefined ? DEFAULT_APPROVE_TIMEOUT_SECONDS : Number(timeout);
  if (!/^\d+$/.test(timeout ?? '1') || !(seconds >= 1 && seconds <= 3600)) {
    throw new ConfigError(`--approve-timeout takes whole seconds from 1 to 3600, not ${JSON.stringify(timeout)}`);
  }
  return { rules, timeoutMs: seconds * 1000, startPaused };
}

/** `--record DIR` / TMUX_MCP_RECORD and `--record-max-mb` / TMUX_MCP_RECORD_MAX_MB; the directory itself is checked at start-up. */
function recordConfig(flags: { dir?: string; maxMb?: string }, env: NodeJS.ProcessEnv): Config['record'] {
  const dir = flags.dir ?? nonEmpty(env.TMUX_MCP_RECORD);
  const maxMb = flags.maxMb ?? nonEmpty(env.TMUX_MCP_RECORD_MAX_MB);
  if (dir === undefined) {
    if (maxMb !== undefined) throw new ConfigError('--record-max-mb (TMUX_MCP_RECORD_MAX_MB) applies to --record only');
    return undefined;
  }
  if (dir.includes('\0')) throw new ConfigError('TMUX_MCP_RECORD must not contain NUL');
  const mb = maxMb === undefined ? DEFAULT_RECORD_MAX_MB : Number(maxMb);
  if (!/^\d*\.?\d+$/.test(maxMb ?? '1') || !(mb >= 0.01 && mb <= 1_000_000)) {
    throw new ConfigError(`--record-max-mb takes a number of MB from 0.01 to 1000000, not ${JSON.stringify(maxMb)}`);
  }
  return { dir: resolve(dir), maxBytes: Math.round(mb * 1024 * 1024) };
}

/** The audit log and the live view, from their flags and variables (TMUX_MCP_AUDIT, TMUX_MCP_AUDIT_REDACT, TMUX_MCP_VIEW). */
function oversightConfig(
  flags: { audit?: string; redact: string[] },
  view: string | undefined,
  env: NodeJS.ProcessEnv,
  tokenFile: string | undefined,
  allowHosts: string[],
): { audit?: AuditConfig; view?: HttpConfig } {
  const file = flags.audit ?? nonEmpty(env.TMUX_MCP_AUDIT);
  const redactEnv = nonEmpty(env.TMUX_MCP_AUDIT_REDACT);
  const redact = [...(redactEnv !== undefined ? [redactEnv] : []), ...flags.redact];
  for (const source of redact) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(source);
    } catch (error) {
      throw new ConfigError(`--audit-redact ${JSON.stringify(source)} is not a valid regular expression: ${(error as Error).message}`);
    }
    if (pattern.test(''))
      throw new ConfigError(`--audit-redact ${JSON.stringify(source)} matches the empty string; it must match what to hide`);
  }
  if (redact.length > 0 && file === undefined && view === undefined)
    throw new ConfigError('--audit-redact applies to --audit and --view; give one of them');
  return {
    ...(file !== undefined || view !== undefined ? { audit: { ...(file !== undefined ? { file: resolve(file) } : {}), redact } } : {}),
    ...(view !== undefined ? { view: httpConfig(view, env, tokenFile, allowHosts, '--view') } : {}),
  };
}

function httpConfig(
  listen: string,
  env: NodeJS.ProcessEnv,
  tokenFile: string | undefined,
  allowHosts: string[],
  flag = '--http',
): HttpConfig {
  const match = /^(?:(\[[^\]]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(listen);
  const port = Number(match?.[2]);
  if (!match || port > 65535) throw new ConfigError(`${flag} takes [HOST:]PORT (e.g. 8765, 127.0.0.1:8765, [::1]:8765), not "${listen}"`);
  const host = match[1]?.replace(/^\[(.*)\]$/, '$1') ?? DEFAULT_HTTP_HOST;
  const token = nonEmpty(env.TMUX_MCP_TOKEN);
  if (token !== undefined && tokenFile !== undefined)
    throw new ConfigError('TMUX_MCP_TOKEN and --token-file are both set; give the token one way');
  if (!isLoopback(host) && token === undefined && tokenFile === undefined) {
    throw new ConfigError(
      `${flag} ${listen} listens beyond this machine: choose a token (TMUX_MCP_TOKEN or --token-file) instead of a generated one`,
    );
  }
  if (!isLoopback(host) && token !== undefined && token.length < MIN_REMOTE_TOKEN_LENGTH) {
    throw new ConfigError(
      `${flag} ${listen} listens beyond this machine: TMUX_MCP_TOKEN needs at least ${MIN_REMOTE_TOKEN_LENGTH} characters`,
    );
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

/** The shortest token chosen for an address beyond loopback: a short one is guessed by trying. */
export const MIN_REMOTE_TOKEN_LENGTH = 16;

/** Loopback addresses and names: only this machine can reach them. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** `--socket`, `--socket-name` and `--tmux` win over the environment; giving both sockets is an error. */
function withSocketFlags(config: Config, socket: { path?: string; name?: string; bin?: string }): Config {
  if (socket.path !== undefined && socket.name !== undefined) throw new ConfigError('--socket and --socket-name are both given; give one');
  if (socket.name?.includes('/')) throw new ConfigError('--socket-name is a name, not a path; use --socket for a path');
  const { socketName: _name, socketPath: _path, ...rest } = config;
  const tmuxBin = socket.bin ?? config.tmuxBin;
  if (socket.path !== undefined) return { ...rest, tmuxBin, socketPath: resolve(socket.path), socketSource: '--socket' };
  if (socket.name !== undefined) return { ...rest, tmuxBin, socketName: socket.name, socketSource: '--socket-name' };
  return { ...config, tmuxBin };
}

function juliaOptions(flags: Map<string, string[]>, allowCreate: boolean, env: NodeJS.ProcessEnv): JuliaOptions {
  const one = (flag: string) => flags.get(flag)?.[0];
  const distinct = (flag: string, values: readonly string[]) => {
    const dup = values.find((v, i) => values.indexOf(v) !== i);
    if (dup !== undefined) throw new ConfigError(`${flag} ${dup} is given twice`);
  };
  const paneId = (flag: string, value: string) => {
    if (!PANE_ID.test(value)) throw new ConfigError(`${flag} takes an exact pane id such as %3, not ${JSON.stringify(value)}`);
    return value;
  };
  const tools = flags.get('--tool');
  if (tools) distinct('--tool', tools);
  const allowPanes = (flags.get('--allow-pane') ?? []).map((v) => paneId('--allow-pane', v));
  distinct('--allow-pane', allowPanes);
  if (allowPanes.length > MAX_ALLOWED_PANES)
    throw new ConfigError(`--allow-pane is given ${allowPanes.length} times; at most ${MAX_ALLOWED_PANES}`);
  const caller = one('--caller-pane');
  const timeout = one('--timeout');
  const timeoutSeconds = timeout === undefined ? 5 : Number(timeout);
  if (!/^\d*\.?\d+$/.test(timeout ?? '5') || !(timeoutSeconds > 0 && timeoutSeconds <= 30)) {
    throw new ConfigError('--timeout takes seconds, greater than 0 and at most 30');
  }
  const count = (flag: string, fallback: number) => {
    const raw = one(flag);
    if (raw === undefined) return fallback;
    if (!/^[0-9]+$/.test(raw)) throw new ConfigError(`${flag} takes a whole number, not ${JSON.stringify(raw)}`);
    return Number(raw);
  };
  const workers = count('--workers', 4);
  const capacity = count('--capacity', 16);
  if (!(workers >= 1 && workers <= capacity && capacity <= 16))
    throw new ConfigError('--workers and --capacity need 1 <= workers <= capacity <= 16');
  const maxResult = env.LIBTMUX_MCP_MAX_RESULT_BYTES;
  const maxResultBytes = maxResult === undefined || maxResult.trim() === '' ? 1_048_576 : Number(maxResult);
  if (!Number.isInteger(maxResultBytes) || maxResultBytes < 1024 || maxResultBytes > 1_048_576) {
    throw new ConfigError('LIBTMUX_MCP_MAX_RESULT_BYTES must be a whole number of bytes from 1024 to 1048576');
  }
  return {
    ...(tools ? { tools } : {}),
    ...(caller !== undefined ? { callerPane: paneId('--caller-pane', caller) } : {}),
    allowPanes,
    allowCreate,
    timeoutMs: Math.round(timeoutSeconds * 1000),
    workers,
    capacity,
    maxResultBytes,
  };
}

function loadConfig(env: NodeJS.ProcessEnv, profileArg?: string): Config {
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
    hosts: hostsFrom(env, [], socketPath === undefined ? (socketName ?? DEFAULT_SOCKET_NAME) : DEFAULT_SOCKET_NAME),
    suppressHistory: suppressHistory(env.LIBTMUX_SUPPRESS_HISTORY),
    caller: callerFrom(env),
    allowSessions: [],
    readOnly: false,
    ...(profile === 'julia' ? { julia: juliaOptions(new Map(), false, env) } : {}),
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
  if (paneId === undefined || !PANE_ID.test(paneId)) return undefined;
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
  const specs = [
    ...(nonEmpty(env.TMUX_MCP_HOSTS)
      ?.split(/[\s,]+/)
      .filter(Boolean) ?? []),
    ...args,
  ];
  const sshConfig = nonEmpty(env.TMUX_MCP_SSH_CONFIG);
  const sshBin = nonEmpty(env.TMUX_MCP_SSH_BIN);
  const remoteTmux = nonEmpty(env.TMUX_MCP_REMOTE_TMUX);
  const silence = env.TMUX_MCP_HOST_SILENCE_SECONDS;
  const silenceMs =
    silence === undefined || silence.trim() === '' ? undefined : seconds(silence, 'TMUX_MCP_HOST_SILENCE_SECONDS', 0, 0.1, 60) * 1000;
  const hosts: RemoteHost[] = [];
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const name = spec.slice(0, Math.max(eq, 0));
    const [destination = '', socket] = spec.slice(eq + 1).split('#', 2);
    if (eq <= 0 || !HOST_NAME.test(name)) {
      throw new ConfigError(
        `host "${spec}" must be NAME=SSH-DESTINATION, NAME being 1-16 letters, digits, "_" or "-", starting with a letter`,
      );
    }
    if (name === 'local') throw new ConfigError('"local" names this machine; give the host another name');
    // ssh would read a host part starting with "-" as an option, in any form (-o…, ssh://-o…, user@-o…).
    const hostPart = destination.replace(/^ssh:\/\//, '').replace(/^[^@/]*@/, '');
    if (destination === '' || destination.startsWith('-') || hostPart.startsWith('-') || /\s/.test(destination)) {
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
      ...(silenceMs !== undefined ? { silenceMs } : {}),
    });
  }
  return hosts;
}
