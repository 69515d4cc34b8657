/**
 * One tmux server, addressed by socket. Commands go over a persistent control-mode client when a
 * session exists to attach to, and through a spawned `tmux` otherwise (or when they need stdin).
 * Pane output for waits comes from a control client attached to the pane's session, since tmux only
 * sends `%output` for panes of the client's own session.
 */
import type { ControlClient, NotificationListener, OutputListener } from './control-client.js';
import type { ControlReply } from './control-parser.js';
import {
  TmuxAttachRefusedError,
  TmuxCommandError,
  TmuxConnectionLostError,
  TmuxLinkSilentError,
  TmuxNoServerError,
  TmuxTimeoutError,
} from './errors.js';
import { localLauncher, sshLauncher, type Launcher, type SshTarget } from './launcher.js';
import { byDeadline, left } from './deadline.js';
import { decodeBody, decodeLines, splitLines } from './reply-lines.js';
import { isSharedRead, SharedReads } from './shared-reads.js';
import { CommandConnection, type AttachChoice, type SessionName } from './command-connection.js';
import { rowFormat } from './formats.js';
import { runSpawned } from './spawned.js';
import { runWithOutput, Watchers } from './watchers.js';
import { checkLocalSocket, localSocket, socketLabel, type LocalSocket } from './local-socket.js';

export interface TmuxServerOptions {
  /** tmux here; with `ssh`, the ssh client runs tmux on that host instead and this is not used. */
  readonly bin: string;
  /** A tmux server on another host, reached over the user's OpenSSH; the socket options apply there. */
  readonly ssh?: Omit<SshTarget, 'connectTimeoutMs'>;
  /** Exactly one of these; neither means tmux's own default socket. */
  readonly socketName?: string;
  readonly socketPath?: string;
  readonly commandTimeoutMs: number;
  /** Environment for tmux processes; TMUX and TMUX_PANE are removed so we never talk to the caller's server by accident. */
  readonly env?: NodeJS.ProcessEnv;
  /** Prefer spawning every command (used by tests of the fallback path). */
  readonly spawnOnly?: boolean;
}

export interface RunOptions {
  readonly timeoutMs?: number;
  /** Bytes for the command's stdin; forces the spawn path. */
  readonly stdin?: Buffer;
  /** Kills the command's process when aborted (rejecting with the signal's reason); forces the spawn path. */
  readonly signal?: AbortSignal;
  /** Skips the gate: for the gate's own lookups. */
  readonly ungated?: boolean;
}

/**
 * Checks a command before it is sent (core's scope rule installs one); a rejection stops it. Answers
 * undefined when there is nothing to check, so an ordinary command costs no promise.
 */
export type CommandGate = (command: readonly string[]) => Promise<void> | undefined;

function decode(reply: ControlReply | Buffer[]): string[] {
  return Array.isArray(reply) ? decodeLines(reply) : decodeBody(reply);
}

export class TmuxServer {
  readonly bin: string;
  /** Starts tmux processes: here, or over ssh on `host`. */
  readonly launcher: Launcher;
  readonly globalArgs: readonly string[];
  /** The socket as configured: a name (`-L`), a path (`-S`), or neither for tmux's default. */
  readonly socket: { readonly name?: string; readonly path?: string };
  /** Human-readable socket, for messages and the banner. */
  readonly socketLabel: string;
  readonly commandTimeoutMs: number;
  readonly #env: NodeJS.ProcessEnv;
  readonly #spawnOnly: boolean;
  /** Output-receiving control clients, one per session with watched panes. */
  readonly #watchers = new Watchers((sessionId) => this.#connection.attach(sessionId, true));
  /** The command client, and every attach's checks. */
  readonly #connection: CommandConnection;
  #closed = false;
  /** This machine's socket file (undefined on a host): checked before every tmux process started on it. */
  readonly #localSocket: LocalSocket | undefined;
  /** Set by the engine: every command passes it before it is sent. */
  gate: CommandGate | undefined;
  /** Set by the engine while sessions are limited: the sessions this server's clients may attach to. */
  attachChoice: AttachChoice | undefined;
  /** Identical listings asked at once share one reply (shared-reads.ts). */
  readonly #sharedReads = new SharedReads();

  constructor(options: TmuxServerOptions) {
    if (options.socketName !== undefined && options.socketPath !== undefined) {
      throw new TypeError('socketName and socketPath are mutually exclusive');
    }
    this.bin = options.bin;
    // -u: without a UTF-8 locale in the environment (hosts often launch servers with a bare one),
    // tmux would turn every control character and non-ASCII byte of command output into "_".
    const socket =
      options.socketPath !== undefined ? ['-S', options.socketPath] : options.socketName !== undefined ? ['-L', options.socketName] : [];
    this.globalArgs = ['-u', ...socket];
    this.socket = {
      ...(options.socketName !== undefined ? { name: options.socketName } : {}),
      ...(options.socketPath !== undefined ? { path: options.socketPath } : {}),
    };
    this.socketLabel = options.ssh ? `${socketLabel(options)} on host ${options.ssh.host}` : socketLabel(options);
    this.commandTimeoutMs = options.commandTimeoutMs;
    this.launcher = options.ssh ? sshLauncher({ ...options.ssh, connectTimeoutMs: options.commandTimeoutMs }) : localLauncher(options.bin);
    const env = { ...(options.env ?? process.env) };
    delete env.TMUX;
    delete env.TMUX_PANE;
    this.#env = env;
    this.#localSocket = options.ssh ? undefined : localSocket(options, env);
    this.#spawnOnly = options.spawnOnly ?? false;
    this.#connection = new CommandConnection({
      launcher: this.launcher,
      globalArgs: this.globalArgs,
      env,
      commandTimeoutMs: this.commandTimeoutMs,
      checkSocket: () => this.checkSocket(),
      closed: () => this.#closed,
      watchers: () => this.#watchers.all(),
      attachChoice: () => this.attachChoice,
      listSessions: () => this.#sessionNames(),
    });
  }

  /** The configured name of the host this server runs on; undefined for this machine. */
  get host(): string | undefined {
    return this.launcher.host;
  }

  /** Runs one tmux command and returns its output lines (UTF-8, invalid bytes replaced). */
  async run(command: readonly string[], options: RunOptions = {}): Promise<string[]> {
    if (this.gate && !options.ungated) {
      const checking = this.gate(command);
      if (checking) await checking;
    }
    if (isSharedRead(command, options))
      return this.#sharedReads.read(command, options, (askedAt) => this.#send(command, options, askedAt).then(decode));
    return decode(await this.#send(command, options, performance.now()));
  }

  /**
   * Runs commands one after another. Over control mode they go out together and tmux runs them in
   * order, so a sequence (text, then Enter) costs one round trip; the first failure is thrown.
   */
  async runInOrder(commands: ReadonlyArray<readonly string[]>): Promise<void> {
    // Only a check that is made is waited for: otherwise the commands go out at once, in call order.
    if (this.gate) {
      for (const command of commands) {
        const checking = this.gate(command);
        if (checking) await checking;
      }
    }
    const client =
      this.#closed || this.#spawnOnly
        ? undefined
        : await this.#clientBy(performance.now() + this.commandTimeoutMs, commands[0] ?? [], this.commandTimeoutMs);
    let next = 0;
    if (client) {
      const replies = await Promise.allSettled(commands.map((command) => client.runReply(command, this.commandTimeoutMs)));
      for (; next < replies.length; next++) {
        const reply = replies[next]!;
        if (reply.status === 'fulfilled') continue;
        // Detached before tmux began this one (and so every later one): send the rest again below.
        if (reply.reason instanceof TmuxConnectionLostError && reply.reason.notStarted) break;
        throw reply.reason;
      }
    }
    for (; next < commands.length; next++) await this.run(commands[next]!, { ungated: true });
  }

  /**
   * A control-mode reply, or the lines of a spawned tmux's output. The whole call, reconnecting
   * included, is bounded by its timeout: while tmux does not answer (stopped, or overloaded) an
   * attach waits in the background, shared by every call, and each call gives up at its deadline.
   */
  async #send(command: readonly string[], options: RunOptions, askedAt: number): Promise<ControlReply | Buffer[]> {
    if (this.#closed) throw new TmuxConnectionLostError('the server is shutting down');
    const timeoutMs = options.timeoutMs ?? this.commandTimeoutMs;
    const deadline = askedAt + timeoutMs;
    if (options.stdin === undefined && options.signal === undefined && !this.#spawnOnly) {
      // A client detached before tmux began the command (its session was killed, or its server is
      // exiting after its last session went) leaves it safe to send again, on a new connection or,
      // with none to attach to, through a spawned tmux. Each try needs a new client, so the
      // deadline bounds the loop.
      for (
        let client = await this.#clientBy(deadline, command, timeoutMs);
        client;
        client = await this.#clientBy(deadline, command, timeoutMs)
      ) {
        try {
          return await client.runReply(command, left(deadline));
        } catch (error) {
          // Closing: no new client (one attaching to a stopped tmux could not be ended safely).
          if (!(error instanceof TmuxConnectionLostError && error.notStarted) || this.#closed) throw error;
        }
      }
    }
    return this.#spawn(command, left(deadline), options.stdin, options.signal);
  }

  /** The command client, or undefined when there is none to attach; a TmuxTimeoutError at `deadline`. */
  #clientBy(deadline: number, command: readonly string[], timeoutMs: number): Promise<ControlClient | undefined> {
    return byDeadline(this.#connection.client(), deadline, () => new TmuxTimeoutError(command, timeoutMs, this.host));
  }

  /**
   * Runs a read-only command, answering `undefined` instead of throwing when no tmux server is
   * running. Being a read, it is sent once more when the connection dies under it (say, the last
   * session was just killed and the server is exiting): that answers from whatever is there now.
   */
  async runIfServer(command: readonly string[], options: RunOptions = {}): Promise<string[] | undefined> {
    // One deadline for both tries: a connection dropped by another call's timeout must not grant a second full timeout.
    const timeoutMs = options.timeoutMs ?? this.commandTimeoutMs;
    const deadline = performance.now() + timeoutMs;
    for (let attempt = 0; ; attempt++) {
      const left = Math.ceil(deadline - performance.now());
      try {
        if (attempt > 0 && left <= 0) throw new TmuxTimeoutError(command, timeoutMs, this.host);
        return await this.run(command, attempt === 0 ? options : { ...options, timeoutMs: left });
      } catch (error) {
        if (error instanceof TmuxNoServerError) return undefined;
        if (attempt === 0 && lacksCurrentSession(command, error)) {
          // A server with no session at all (kept by exit-empty off) lists nothing; otherwise the command
          // client's own session was just destroyed, and tmux is ending that client: asked again after it.
          const sessions = await this.run(['list-sessions', '-F', '#{session_id}'], { ungated: true, timeoutMs: Math.max(1, left) });
          if (sessions.length === 0) return [];
          await this.#commandClientGone(Math.min(left, CLIENT_END_MS));
          continue;
        }
        // The second try had what was left of the one deadline: the call's timeout is what ran out.
        if (attempt > 0 && error instanceof TmuxTimeoutError) throw new TmuxTimeoutError(command, timeoutMs, this.host);
        // A host that went silent would only hang the second try: say so now.
        if (!(error instanceof TmuxConnectionLostError) || error instanceof TmuxLinkSilentError || attempt > 0 || this.#closed) throw error;
      }
    }
  }

  /** Settles once the command client now in use has closed, or after `ms`. */
  #commandClientGone(ms: number): Promise<void> {
    const client = this.#connection.current;
    if (!client || client.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stop();
        resolve();
      };
      const timer = setTimeout(done, ms);
      const stop = client.onClose(done);
    });
  }

  /**
   * On a host whose connection went silent (the link or the host is down) and has not been made
   * again since: that error. A wait whose output stream ended then ends with it, at once.
   */
  get linkLost(): TmuxLinkSilentError | undefined {
    return this.#connection.linkLost;
  }

  /**
   * Changes whenever commands start going to a different control client (or to none). While it
   * stays the same and is not 0, the tmux server cannot have restarted in between.
   */
  get connectionEpoch(): number {
    return this.#connection.epoch;
  }

  /** Pids of this process's own tmux clients, so they are not counted as a person watching. */
  ownClientPids(): Set<number> {
    const pids = new Set<number>();
    for (const client of [this.#connection.current, ...this.#watchers.all()]) {
      if (client && !client.closed && client.pid !== undefined) pids.add(client.pid);
    }
    return pids;
  }

  /**
   * Streams a pane's output through a control client attached to `sessionId`. Resolves once tmux
   * is sending, so output printed after it resolves is never missed.
   */
  async watchPane(
    sessionId: string,
    paneId: string,
    handlers: { output: OutputListener; notification?: NotificationListener; close: (reason: string) => void },
  ): Promise<() => void> {
    let client: ControlClient;
    try {
      client = await byDeadline(
        this.#watchers.clientFor(sessionId),
        performance.now() + this.commandTimeoutMs,
        () => new TmuxTimeoutError(['attach-session', '-t', sessionId], this.commandTimeoutMs, this.host),
      );
    } catch (error) {
      // The session (or the whole server) went before the attach: a watch that ends at once, as
      // one whose client tmux detached; the watcher's liveness check then says the pane is gone.
      if (!(error instanceof TmuxAttachRefusedError)) throw error;
      handlers.close(error.message);
      return () => {};
    }
    const stops = [
      client.watchPane(paneId, handlers.output),
      client.onClose((reason) => (this.#connection.noteSilence(client), handlers.close(reason))),
    ];
    if (handlers.notification) stops.push(client.onNotification(handlers.notification));
    return () => {
      for (const stop of stops) stop();
      this.#watchers.release(sessionId, client);
    };
  }

  /**
   * Runs `commands` on the client that receives `sessionId`'s pane output (a watch on one of its
   * panes must be open), so tmux answers them in order with that output. `atReplies` gets each
   * command's output lines the moment the last reply is read, before any %output tmux queued after
   * the commands ran is passed on: what they read is exactly the state the following output starts
   * from. It is not called when a command fails (the promise rejects then).
   */
  async runInWatch(sessionId: string, commands: ReadonlyArray<readonly string[]>, atReplies: (outputs: string[][]) => void): Promise<void> {
    const client = this.#watchers.attached(sessionId);
    await runWithOutput(client, commands, this.commandTimeoutMs, atReplies);
  }

  /** tmux's sessions, through a spawned tmux (no control client is attached yet to ask). */
  async #sessionNames(): Promise<SessionName[]> {
    const stdout = await this.#spawnRaw(['list-sessions', '-F', SESSION_NAMES.format], this.commandTimeoutMs, undefined);
    return SESSION_NAMES.parse(stdout.toString('utf8').split('\n'));
  }

  /** Closes every control client and waits for their processes to end. */
  async close(): Promise<void> {
    this.#closed = true;
    // Stranded clients found on the last connection are ended before it closes, and a client still
    // attaching is closed as it attaches, not left to notice this process has gone.
    await Promise.all([this.#connection.reaping, this.#connection.attaching?.catch(() => {})]);
    const clients = [this.#connection.detach(), ...this.#watchers.all()];
    this.#watchers.clear();
    await Promise.all(clients.map((client) => client?.close()));
  }

  /** Throws TmuxSocketUnusableError when the local socket path is one tmux would destroy (see socket-guard.ts). */
  checkSocket(): void {
    if (this.#localSocket) checkLocalSocket(this.#localSocket);
  }

  /**
   * Runs one command in a spawned tmux and returns its stdout byte for byte. For output that
   * tmux shapes for control clients (show-buffer escapes bytes there) or whose last newline matters.
   */
  async output(command: readonly string[], options: RunOptions = {}): Promise<Buffer> {
    if (this.#closed) throw new TmuxConnectionLostError('the server is shutting down');
    if (this.gate && !options.ungated) {
      const checking = this.gate(command);
      if (checking) await checking;
    }
    return this.#spawnRaw(command, options.timeoutMs ?? this.commandTimeoutMs, options.stdin, options.signal);
  }

  async #spawn(command: readonly string[], timeoutMs: number, stdin: Buffer | undefined, signal?: AbortSignal): Promise<Buffer[]> {
    const stdout = await this.#spawnRaw(command, timeoutMs, stdin, signal);
    return stdout.length === 0 ? [] : splitLines(stdout);
  }

  async #spawnRaw(command: readonly string[], timeoutMs: number, stdin: Buffer | undefined, signal?: AbortSignal): Promise<Buffer> {
    const deadline = performance.now() + timeoutMs;
    await byDeadline(this.#connection.checkVersion(), deadline, () => new TmuxTimeoutError(command, timeoutMs, this.host));
    const stdout = await runSpawned(this, command, { deadline, env: this.#env, stdin, signal });
    // A spawned command may have created the first session: let the next call attach.
    this.#connection.mayAttach();
    return stdout;
  }
}

/** How long a read that found no current session waits for tmux to end the command client that lost its own. */
const CLIENT_END_MS = 1000;
/** Listings of the whole server that tmux still runs in a current session's context (list-windows -a, say). */
const SERVER_LISTINGS = new Set(['list-clients', 'list-panes', 'list-windows']);

/** tmux found no session to take as current for a listing of the whole server: it has none, or the client lost its own. */
function lacksCurrentSession(command: readonly string[], error: unknown): boolean {
  return (
    error instanceof TmuxCommandError &&
    error.message.trim() === 'no current target' &&
    SERVER_LISTINGS.has(command[0] ?? '') &&
    !command.includes('-t')
  );
}

const SESSION_NAMES = rowFormat({ id: 'session_id', name: 'session_name' });
