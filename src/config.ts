/**
 * The configuration every layer reads: its types and defaults, plain data. It imports nothing above core;
 * src/cli/options.ts builds one from argv and the environment, and bad values stop start-up there.
 */
import type { RemoteHost } from './core/servers/host-config.js';
import type { SessionPattern } from './core/targets/scope.js';

export const PROFILES = ['libtmux', 'python', 'julia'] as const;
export type ProfileName = (typeof PROFILES)[number];

/** Where tmux lives when nothing says otherwise: a private socket, never the user's server by accident. */
export const DEFAULT_SOCKET_NAME = 'libtmux-mcp';

export interface Config {
  readonly profile: ProfileName;
  readonly tmuxBin: string;
  readonly socketName?: string;
  readonly socketPath?: string;
  /** Which flag or variable chose the socket, for the banner and error messages. */
  readonly socketSource: 'LIBTMUX_SOCKET_NAME' | 'LIBTMUX_SOCKET' | 'LIBTMUX_SOCKET_PATH' | '--socket' | '--socket-name' | 'default';
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
  /** python profile: whether run_command keeps commands out of shell history by default (LIBTMUX_SUPPRESS_HISTORY). */
  readonly suppressHistory: boolean;
  /** The pane this server runs in, if it runs inside tmux (`TMUX_PANE`), and that server's pid (`TMUX`). */
  readonly caller?: { readonly paneId: string; readonly serverPid?: number; readonly socketPath?: string };
  /** `--allow-session` / TMUX_MCP_ALLOW_SESSIONS: the sessions calls may see and touch (empty: every session). */
  readonly allowSessions: readonly SessionPattern[];
  /** `--read-only` / TMUX_MCP_READ_ONLY=1: only the tools that only read are listed and callable. */
  readonly readOnly: boolean;
  /** Set by `--http`: serve Streamable HTTP instead of stdio. */
  readonly http?: HttpConfig;
  /** The julia profile's own options (its command-line flags); present only for that profile. */
  readonly julia?: JuliaOptions;
  /** `--record DIR` (TMUX_MCP_RECORD): an asciicast file per pane acted on, in `dir`, each at most `maxBytes`. */
  readonly record?: { readonly dir: string; readonly maxBytes: number };
  /** `--audit FILE` / `--audit-redact REGEX`: the audit log of every tool call (docs/oversight.md). */
  readonly audit?: AuditConfig;
  /** `--view [HOST:]PORT`: the live read-only web view; its token and allowed hosts as for --http. */
  readonly view?: HttpConfig;
  /** `--approve RULE`, `--approve-timeout`, `--start-paused`: calls that wait for a person (docs/oversight.md). */
  readonly approvals?: ApprovalConfig;
}

export interface ApprovalConfig {
  /** As given, one per --approve or TMUX_MCP_APPROVE entry; parsed and checked at start-up (mcp/approvals/rules.ts). */
  readonly rules: readonly string[];
  /** How long a question waits for its answer before the call is refused. */
  readonly timeoutMs: number;
  /** Calls that change anything wait until Resume in the live view. */
  readonly startPaused: boolean;
}

/** `--approve-timeout` when not given, in seconds. */
export const DEFAULT_APPROVE_TIMEOUT_SECONDS = 120;

export interface AuditConfig {
  /** The JSON-lines file calls are appended to; undefined when only the view shows the trail. */
  readonly file?: string;
  /** Patterns whose matches in arguments and errors are written `[redacted]` (checked: valid, never matching ""). */
  readonly redact: readonly string[];
}

/** `--record-max-mb` when not given: the largest recording file, in MB. */
export const DEFAULT_RECORD_MAX_MB = 50;

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

export interface JuliaOptions {
  /** `--tool`, in the order given; undefined means the default catalog. Names are checked by the profile. */
  readonly tools?: readonly string[];
  /** `--caller-pane`: the pane a call without `target` acts on, resolved at start-up. */
  readonly callerPane?: string;
  /** `--allow-pane`: when non-empty, the only panes calls may target (plus the panes of sessions this process creates). */
  readonly allowPanes: readonly string[];
  /** `--allow-create`: create_session may create sessions. */
  readonly allowCreate: boolean;
  /** `--timeout`: one deadline for everything one tool call does. */
  readonly timeoutMs: number;
  /** `--workers`: tool calls run at once; more wait their turn. */
  readonly workers: number;
  /** `--capacity`: tool calls running or waiting; one more is refused with JSON-RPC -32000. */
  readonly capacity: number;
  /** Largest result payload, in UTF-8 bytes of its JSON; a larger one is replaced by a `result_limit` error. */
  readonly maxResultBytes: number;
}
