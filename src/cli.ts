#!/usr/bin/env node
/** `tmux-mcp`: reads argv and the environment, then serves MCP over stdio (stdout carries only the protocol) or HTTP. */
import { readFile } from 'node:fs/promises';
import { ConfigError, type Config, type HttpConfig } from './config.js';
import { HELP } from './cli/help.js';
import { isLoopback, MIN_REMOTE_TOKEN_LENGTH, parseCli } from './cli/options.js';
import { checkTmuxBin } from './cli/tmux-check.js';
import { beginShutdown } from './core/servers/shutdown.js';
import type { PaneRecorder } from './core/watch/recorder.js';
import { VERSION } from './version.js';
import type { AuditTrail } from './mcp/tools/audit.js';
import type { OpenedTrail } from './cli/audit-file.js';
import type { ViewOptions } from './view/server.js';
import { SelectionError } from './mcp/tools/selection.js';
import { socketAtStart } from './core/servers/socket-at-start.js';

/** A start-up failure that is not a bad option (say, the port is taken): one line, exit code 1. */
class StartupError extends Error {}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'call' || argv[0] === 'tools') {
    // One call from a shell (src/cli/commands.ts); the server's modules load only if it runs in-process.
    const { runCommand } = await import('./cli/commands.js');
    process.exit(await runCommand(argv, process.env, process));
  }
  const action = parseCli(argv, process.env);
  if (action.kind === 'help') {
    process.stdout.write(HELP);
    return;
  }
  if (action.kind === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  await serve(action.config);
}

/**
 * How long the calls in flight at end of input (or SIGTERM) are awaited: waits end at once when
 * shutdown begins, so only a call stuck on tmux is still running then, and it gets an error.
 * The process exits within a second of its input ending.
 */
const DRAIN_LIMIT_MS = 700;
/** After the drain and the profile's own close (julia's owned sessions), the most that closing tmux clients may take. */
const EXIT_GRACE_MS = 250;

/** The engine, the profiles' lookup and the SDK's side of the server. */
async function loadServer() {
  const [engine, profiles, server, stdio] = await Promise.all([
    import('./cli/engine.js'),
    import('./profiles/index.js'),
    import('./mcp/server.js'),
    import('./mcp/wire/stdio.js'),
  ]);
  return { ...engine, ...profiles, ...server, ...stdio };
}

/** Check, build, load the SDK, serve. */
async function serve(config: Config): Promise<void> {
  // A trail that cannot be written, a tmux that cannot run, a recording directory that is not writable
  // or a socket path tmux would unlink (an ordinary file, say): each stops start-up before any tmux runs.
  const opened = config.audit ? await openTrail(config.audit) : undefined;
  try {
    await serveWith(config, opened?.trail);
  } catch (error) {
    // A start that fails leaves no empty audit file of its own making behind.
    opened?.discardIfUnused();
    throw error;
  }
}

async function serveWith(config: Config, trail: AuditTrail | undefined): Promise<void> {
  // So does an approval rule that does not parse.
  const gate = config.approvals ? await import('./cli/approvals.js') : undefined;
  const approvalRules = gate?.approvalRules(config);
  // The server's modules load while `tmux -V` runs; a failed check ends the process first.
  const loading = loadServer();
  loading.catch(() => {});
  const tmuxVersion = await checkTmuxBin(config, process.env);
  const recorder = await startRecorder(config);
  const socket = socketAtStart(config, process.env);
  if (socket.problem !== undefined) throw new ConfigError(`${config.socketSource}: ${socket.problem}`);
  // Whether a tmux server ran before this one could start one.
  const running = await socket.listening();

  const { registryFor, buildProfile, createServerFactory, profileWire, serveBothErasOverStdio } = await loading;
  const registry = registryFor(config, recorder);
  // Only the profile in use loads its code.
  const { profile, selectionSummary, close } = await buildProfile(config, registry, !running);
  // The view shows the panes of every listed server: from the first call on, no call reaches a socket out of its sight.
  if (config.view)
    registry.confineToListed(
      'while --view is on, calls reach only the servers the view shows (the configured socket and the --host servers)',
    );
  // One factory, one profile context, one engine registry: every connection or HTTP request shares them.
  const approvals = gate && approvalRules ? gate.openApprovals(config, approvalRules, registry) : undefined;
  if (approvals && trail) approvals.attachTrail(trail);
  const factory = createServerFactory(profile, { ...(trail ? { trail } : {}), ...(approvals ? { approvals } : {}) });
  // The control connection opens while the client starts, so the first call finds it ready.
  if (running) void registry.defaultEngine.identity().catch(() => {});

  let closeView: () => Promise<void> = async () => {};
  let closeTransport: () => Promise<void> = async () => {};
  let drainTransport: () => Promise<void> = async () => {};
  let closing = false;
  const shutdown = async (code: number) => {
    if (closing) return;
    closing = true;
    beginShutdown();
    // Waits end at once; a profile that can end its calls does (cancelled, or closed if not begun); all are answered first.
    profile.closing?.();
    await drainTransport().catch(() => {});
    await closeView().catch(() => {});
    await closeTransport().catch(() => {});
    await close?.().catch(() => {});
    trail?.close();
    // Whatever still holds on (a tmux client tmux does not answer) may not keep the process past its second.
    setTimeout(() => process.exit(code), EXIT_GRACE_MS);
    // Recordings first, while tmux is still connected: one just begun gets its first paint.
    await recorder?.close();
    await registry.close();
    process.exit(code);
  };
  // An interrupt ends with the shell's 130 (the julia contract's "interrupted"); SIGTERM is a service
  // manager's ordinary stop, a clean end like end of input (systemd counts only 0 as success).
  process.on('SIGINT', () => void shutdown(130));
  process.on('SIGTERM', () => void shutdown(0));
  const banner = (where: string) => process.stderr.write(bannerLine(config, tmuxVersion, socket.label, running, selectionSummary, where));

  // One token for --http and --view, however it is given; a generated one is made once.
  const token = config.http || config.view ? await httpToken((config.http ?? config.view)!) : undefined;
  // The view is up from the start, whatever the transport: a person may open it before any agent connects.
  let where = '';
  let viewLink = '';
  if (config.view && token && trail) {
    const view = await startView(config.view, token, { registry, trail, ...(approvals ? { approvals: approvals.board } : {}) });
    closeView = () => view.close();
    approvals?.attachView();
    where = `, view at ${view.url}`;
    // A generated token: the link that opens the page, after the banner.
    if (token.generated) viewLink = `tmux-mcp: live view for this run: ${view.url}?token=${token.value}\n`;
  }
  const announce = (at: string) => {
    banner(at);
    if (viewLink) process.stderr.write(viewLink);
  };
  if (config.http && token) {
    // Loaded only here: the HTTP stack (@modelcontextprotocol/node) costs stdio start-up time otherwise.
    const { serveHttp } = await import('./mcp/http/serve.js');
    const http = await serveHttp(factory, {
      onListenError: (error) => new StartupError(`cannot listen on ${hostPort(config.http!)}: ${listenProblem(error)}`),
      host: config.http.host,
      port: config.http.port,
      token: token.value,
      allowedHostnames: config.http.allowedHostnames,
      ...(profile.capacity ? { capacity: profile.capacity } : {}),
      ...(profile.jsonRpcRules ? { rules: profile.jsonRpcRules } : {}),
    });
    closeTransport = () => http.close();
    drainTransport = () => http.drain(DRAIN_LIMIT_MS);
    // A generated token is part of the one banner line, printed once.
    announce(`, HTTP at ${http.url}${token.generated ? ` with the bearer token for this run: ${token.value}` : ''}${where}`);
  } else {
    // Over stdio the banner is written before the first answer (the view's address with it).
    announce(where);
    const connection = serveBothErasOverStdio(factory, {
      // Calls in flight when stdin ends are answered first: waits end at once, the rest get the drain limit.
      drainLimitMs: DRAIN_LIMIT_MS,
      // Waits end at once; quick calls still finish (the profile's own closing comes after the drain).
      onInputEnd: beginShutdown,
      wrap: (wire) => profileWire(profile, wire),
      ...(profile.jsonRpcRules?.limits ? { limits: profile.jsonRpcRules.limits } : {}),
    });
    closeTransport = () => connection.close();
    drainTransport = () => connection.drain();
    void connection.closed.then(() => shutdown(0));
  }
}

/** The live view, listening; a port it cannot have ends start-up as a taken --http port does (one line, exit 1). */
async function startView(view: HttpConfig, token: { value: string }, serving: Omit<ViewOptions, keyof HttpConfig | 'token'>) {
  // Loaded only here: with no --view, nothing of the view is in the process.
  const { serveView } = await import('./view/server.js');
  return serveView({ ...view, token: token.value, ...serving }).catch((error: NodeJS.ErrnoException) => {
    throw new StartupError(`--view: cannot listen on ${hostPort(view)}: ${listenProblem(error)}`);
  });
}

function hostPort(listen: HttpConfig): string {
  return `${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${listen.port}`;
}

/** The one line on stderr that says what this process serves. */
function bannerLine(
  config: Config,
  tmuxVersion: string,
  socketLabel: string,
  running: boolean,
  selectionSummary: string,
  where: string,
): string {
  return (
    `tmux-mcp ${VERSION}: profile ${config.profile}, ${tmuxVersion}, socket ${socketLabel} (${config.socketSource}, ` +
    `${running ? 'server running' : 'no server yet'}), ` +
    (config.hosts.length ? `hosts ${config.hosts.map((h) => `${h.name}=${h.destination}`).join(' ')}, ` : '') +
    (config.record ? `recording panes to ${config.record.dir}, ` : '') +
    // The selection says read-only when it is (and which toolset that leaves).
    `${selectionSummary}` +
    (config.allowSessions.length ? `, sessions ${config.allowSessions.map((p) => p.text).join(',')} only` : '') +
    (config.approvals?.rules.length ? `, asks a person before ${config.approvals.rules.join(' ')}` : '') +
    (config.approvals?.startPaused ? ', paused' : '') +
    `${where}\n`
  );
}

function listenProblem(error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRINUSE') return 'the address is already in use (another server listens there; choose another port)';
  if (error.code === 'EACCES') return 'permission denied (ports below 1024 need privileges)';
  if (error.code === 'EADDRNOTAVAIL') return 'no interface of this machine has that address';
  return error.message;
}

/** The audit trail of --audit (its file checked now) and of --view; an unwritable file ends start-up with exit status 1. */
async function openTrail(audit: NonNullable<Config['audit']>): Promise<OpenedTrail> {
  const { AuditFileError, openAuditTrail } = await import('./cli/audit-file.js');
  try {
    return openAuditTrail(audit);
  } catch (error) {
    if (!(error instanceof AuditFileError)) throw error;
    process.stderr.write(`tmux-mcp: ${error.message}\n`);
    process.exit(1);
  }
}

/** The recorder for --record, once its directory proved writable; a directory that is not stops start-up (exit 1). */
async function startRecorder(config: Config): Promise<PaneRecorder | undefined> {
  if (!config.record) return undefined;
  const { PaneRecorder, recordDirectoryProblem } = await import('./core/watch/recorder.js');
  const problem = await recordDirectoryProblem(config.record.dir);
  if (problem !== undefined) throw new StartupError(`--record ${config.record.dir}: ${problem}`);
  return new PaneRecorder({ ...config.record, onError: (message) => process.stderr.write(`tmux-mcp: ${message}\n`) });
}

/** The HTTP bearer token: TMUX_MCP_TOKEN, else the --token-file's content, else a fresh one printed once. */
async function httpToken(http: HttpConfig): Promise<{ value: string; generated: boolean }> {
  if (http.token !== undefined) return { value: http.token, generated: false };
  if (http.tokenFile !== undefined) {
    const value = (
      await readFile(http.tokenFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new ConfigError(`--token-file ${http.tokenFile}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
      })
    ).trim();
    if (value === '') throw new ConfigError(`--token-file ${http.tokenFile} is empty; put the token in it`);
    if (value.length < MIN_REMOTE_TOKEN_LENGTH && !isLoopback(http.host)) {
      throw new ConfigError(
        `--token-file ${http.tokenFile}: a token for a non-loopback address needs at least ${MIN_REMOTE_TOKEN_LENGTH} characters`,
      );
    }
    return { value, generated: false };
  }
  const { generateToken } = await import('./mcp/http/auth.js');
  return { value: generateToken(), generated: true };
}

main().catch((error: unknown) => {
  const message =
    error instanceof ConfigError || error instanceof SelectionError || error instanceof StartupError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`tmux-mcp: ${message}\n`);
  process.exit(error instanceof StartupError ? 1 : 2);
});
