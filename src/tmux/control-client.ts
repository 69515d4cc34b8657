/**
 * One `tmux -C attach-session` process: commands go in as lines, replies come back in FIFO order,
 * notifications and pane output are handed to listeners.
 *
 * The client attaches with `ignore-size` so it never resizes a window. It never creates a session
 * (`-N`, and attach only), and tmux detaches it when its session is destroyed, so it cannot keep a
 * killed session alive. Closing stdin ends it; a kill timer makes sure the process is gone.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { ControlParser, type ControlEvent, type ControlReply } from './control-parser.js';
import { commandLine } from './command-line.js';
import {
  TmuxAttachRefusedError,
  TmuxCommandError,
  TmuxConnectionLostError,
  TmuxHostError,
  TmuxLinkSilentError,
  TmuxTimeoutError,
  TmuxUnavailableError,
} from './errors.js';
import type { Launcher } from './launcher.js';
import { SilenceWatch } from './silence.js';

export interface ControlClientOptions {
  /** Starts the `tmux -C` process, here or over ssh. */
  readonly launcher: Launcher;
  readonly globalArgs: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Session to attach to (`$N`); omitted means tmux's choice. */
  readonly target?: string;
  /**
   * Gives up waiting for the attach after this long (the process is left to end by itself, see
   * close()); omitted, connect waits until tmux answers or the process ends.
   */
  readonly connectTimeoutMs?: number;
  /** Ask tmux for `%output` of the session's panes (for watches); command clients go without. */
  readonly receiveOutput?: boolean;
}

/** Bytes of the client's stderr kept for the error that ends it. */
const STDERR_KEEP = 2000;
/** Bound on asking a remote tmux for its client's pid right after the attach. */
const PID_QUERY_MS = 10_000;

/** Seconds a pane's output may wait in tmux for a watch before tmux skips it (see %pause). */
const PAUSE_AFTER_SECONDS = 30;
/** Bound on the command that resumes a paused pane. */
const CONTINUE_TIMEOUT_MS = 10_000;

/** How long after the process exits its output may still arrive before the connection counts as closed. */
const EXIT_GRACE_MS = 1000;

export type NotificationListener = (name: string, args: string) => void;
/**
 * Pane output as it arrives; `ageMs` is how long tmux held it before sending. `skipped` (and empty
 * text) means tmux dropped output this client had not taken yet: the pane had fallen too far behind.
 */
export type OutputListener = (text: string, ageMs: number, skipped?: boolean) => void;

interface Pending {
  readonly command: readonly string[];
  readonly resolve: (reply: ControlReply) => void;
  readonly reject: (error: Error) => void;
  /** Called the moment the reply is read, before any %output after it is passed on (see runReply). */
  readonly atReply?: (reply: ControlReply) => void;
  timer: NodeJS.Timeout | undefined;
  settled: boolean;
}

interface PaneWatch {
  readonly decoder: StringDecoder;
  readonly listeners: Set<OutputListener>;
}

export class ControlClient {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #parser: ControlParser;
  readonly #queue: Pending[] = [];
  /** Command lines queued in this tick and not yet written. */
  #outgoing = '';
  readonly #notificationListeners = new Set<NotificationListener>();
  readonly #closeListeners = new Set<(reason: string) => void>();
  readonly #watches = new Map<string, PaneWatch>();
  #closed: string | undefined;
  #stderr = '';
  #remotePid: number | undefined;
  readonly #host: string | undefined;
  #attached = false;
  #onAttached: ((error?: Error) => void) | undefined;
  /** Over ssh: the heartbeat that ends the connection past the silence limit (Launcher.silenceMs). */
  readonly #silence: SilenceWatch | undefined;
  #silent: TmuxLinkSilentError | undefined;
  #timedOut = false;

  private constructor(options: ControlClientOptions) {
    // no-output keeps pane output off a client that only carries commands: less to read, and tmux
    // 3.3 can crash respawning a pane while an output-receiving control client is attached.
    // pause-after makes tmux say how long it held each piece of output (a watch can tell it lags)
    // and skip a pane that falls further behind than that instead of ending the whole client.
    const flags = options.receiveOutput ? `ignore-size,pause-after=${PAUSE_AFTER_SECONDS}` : 'ignore-size,no-output';
    const argv = [...options.globalArgs, '-N', '-C', 'attach-session', '-f', flags];
    if (options.target !== undefined) argv.push('-t', options.target);
    this.#host = options.launcher.host;
    const silenceMs = options.launcher.silenceMs;
    this.#silence =
      silenceMs === undefined
        ? undefined
        : new SilenceWatch(silenceMs, {
            waitedOn: () => this.#closed === undefined && this.#waitedOn,
            open: () => this.#closed === undefined,
            probe: (timeoutMs) => void this.runReply(['display-message', '-p', ''], timeoutMs).catch(() => {}),
            drop: (limitMs) => this.drop(new TmuxLinkSilentError(this.#host ?? 'local', limitMs)),
          });
    const launch = options.launcher.launch(argv);
    this.#child = spawn(launch.file, launch.args, { env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#parser = new ControlParser((event) => this.#dispatch(event), {
      wantsOutput: (paneId) => this.#watches.has(paneId),
    });
    this.#child.stdout.on('data', (chunk: Buffer) => {
      this.#silence?.heard();
      this.#parser.push(chunk);
    });
    // tmux says little here ("no sessions"); ssh says why it could not connect. Only the tail is kept.
    this.#child.stderr.on('data', (chunk: Buffer) => (this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_KEEP)));
    this.#child.stdin.on('error', () => {});
    this.#child.on('error', (error) => this.#shutdown(`cannot run tmux: ${error.message}`, new TmuxUnavailableError(launch.file, error)));
    // Before the attach, ssh's failure is the answer; after it, the calls in flight lost their connection.
    const ended = (code: number | null, signal: NodeJS.Signals | null) => {
      const transport = options.launcher.transportError(code, this.#stderr);
      const where = options.launcher.host === undefined ? '' : ` on host ${options.launcher.host}`;
      this.#shutdown(
        transport?.message ?? `tmux control client${where} exited (${signal ?? `code ${code}`})`,
        this.#attached ? undefined : transport,
      );
    };
    this.#child.on('close', ended);
    // A stopped tmux server holds the stdio it was handed at connect, so 'close' may never come.
    this.#child.on('exit', (code, signal) => {
      setTimeout(() => {
        this.#child.stdout.destroy();
        ended(code, signal);
      }, EXIT_GRACE_MS).unref();
    });
  }

  /** Starts a control client and resolves once tmux has accepted the attach; rejects if it cannot. */
  static async connect(options: ControlClientOptions): Promise<ControlClient> {
    const client = new ControlClient(options);
    await new Promise<void>((resolve, reject) => {
      const timer =
        options.connectTimeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              void client.close();
              // Over ssh, silence means the host or the network.
              reject(
                options.launcher.host !== undefined
                  ? TmuxHostError.silent(
                      options.launcher.host,
                      options.launcher.destination ?? options.launcher.label,
                      options.connectTimeoutMs!,
                    )
                  : new TmuxConnectionLostError(`no answer to attach within ${options.connectTimeoutMs} ms`),
              );
            }, options.connectTimeoutMs);
      client.#onAttached = (error) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
    });
    if (options.launcher.host !== undefined) {
      // Over ssh the local pid is ssh's: ask tmux for its client's own, to tell our clients from people's.
      try {
        const reply = await client.runReply(['display-message', '-p', '#{client_pid}'], options.connectTimeoutMs ?? PID_QUERY_MS);
        client.#remotePid = Number(reply.body.toString('utf8').trim()) || undefined;
      } catch (error) {
        await client.close();
        throw error;
      }
    }
    return client;
  }

  /** The tmux client's process id, as tmux reports it in `client_pid`. */
  get pid(): number | undefined {
    return this.#remotePid ?? this.#child.pid;
  }

  get closed(): boolean {
    return this.#closed !== undefined;
  }

  /** Set when the connection was ended for going silent (see silence.ts). */
  get silent(): TmuxLinkSilentError | undefined {
    return this.#silent;
  }

  /** Ended because a command got no reply in time: the far tmux may still hold its end (see TmuxServer's orphans). */
  get timedOut(): boolean {
    return this.#timedOut;
  }

  /**
   * Sends one command; resolves with its reply (its body in one buffer, decoded at once by the caller) or rejects with tmux's error text.
   * `atReply` sees the reply (failed or not) synchronously as it is read: tmux writes a control client's replies in order with the
   * pane output it queued for that client, so what atReply sees is exactly the state before every %output dispatched after it.
   */
  runReply(command: readonly string[], timeoutMs: number, atReply?: (reply: ControlReply) => void): Promise<ControlReply> {
    if (this.#closed !== undefined) return Promise.reject(new TmuxConnectionLostError(this.#closed));
    let line: string;
    try {
      line = commandLine(command);
    } catch (error) {
      return Promise.reject(error);
    }
    this.#startWaiting();
    return new Promise((resolve, reject) => {
      const pending: Pending = { command, resolve, reject, atReply, timer: undefined, settled: false };
      pending.timer = setTimeout(() => {
        // The FIFO can no longer be trusted once a reply is missing: end this connection.
        this.#settle(pending, new TmuxTimeoutError(command, timeoutMs, this.#host));
        this.#timedOut = this.#closed === undefined;
        this.#shutdown(`tmux ${command[0]} timed out`);
        // Killed now, not left to stdin EOF: tmux keeps a control client whose unanswered command's
        // reply cannot be written (this process may have exited). Safe once tmux answered the attach.
        if (this.#attached) this.#child.kill('SIGKILL');
      }, timeoutMs);
      this.#queue.push(pending);
      // Commands issued in the same tick (Promise.all of several) go out in one write.
      if (this.#outgoing === '') queueMicrotask(() => this.#flush());
      this.#outgoing += line + '\n';
    });
  }

  #flush(): void {
    const data = this.#outgoing;
    this.#outgoing = '';
    if (data !== '' && this.#closed === undefined) this.#child.stdin.write(data);
  }

  onNotification(listener: NotificationListener): () => void {
    this.#notificationListeners.add(listener);
    return () => this.#notificationListeners.delete(listener);
  }

  onClose(listener: (reason: string) => void): () => void {
    if (this.#closed !== undefined) {
      queueMicrotask(() => listener(this.#closed!));
      return () => {};
    }
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /** Streams a pane's output, decoded as UTF-8 across chunk boundaries, until the returned function is called. */
  watchPane(paneId: string, listener: OutputListener): () => void {
    this.#startWaiting();
    let watch = this.#watches.get(paneId);
    if (!watch) {
      watch = { decoder: new StringDecoder('utf8'), listeners: new Set() };
      this.#watches.set(paneId, watch);
    }
    watch.listeners.add(listener);
    return () => {
      const current = this.#watches.get(paneId);
      if (!current) return;
      current.listeners.delete(listener);
      if (current.listeners.size === 0) this.#watches.delete(paneId);
    };
  }

  get watchCount(): number {
    return this.#watches.size;
  }

  /**
   * Ends the client: stdin EOF detaches it, a kill follows if it lingers. A client tmux has not
   * answered yet is never signalled: tmux 3.3a crashes (SIGSEGV) when it resumes after SIGSTOP and
   * finds control clients that connected while it was stopped already killed. Such a client ends by
   * itself on the EOF once tmux answers; close() does not wait for it.
   *
   * On a host, the far tmux is first told to kill its end of this client, and ssh is left to exit
   * once that end is gone: tmux 3.3 can keep for good a control client whose reader went away while
   * output for it was still queued, and ending ssh reaches only the stdio tmux holds. The kill's
   * reply is never awaited, since the client it kills need not live to send it.
   */
  close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return Promise.resolve();
    const farPid = this.#host !== undefined && this.#attached && this.#closed === undefined ? this.#remotePid : undefined;
    if (farPid !== undefined && Number.isSafeInteger(farPid) && farPid > 1) {
      this.#flush();
      this.#child.stdin.write(commandLine(['run-shell', '-b', `kill -KILL ${farPid}`]) + '\n');
    }
    this.#child.stdin.end();
    if (!this.#attached) return Promise.resolve();
    return new Promise((resolve) => {
      // Locally a client still there 200 ms after SIGTERM waits on a tmux that does not answer (stopped):
      // killing an attached client is safe, and the process must exit within a second of its input ending.
      const kill = setTimeout(() => this.#child.kill('SIGKILL'), this.#host === undefined ? 200 : 1000);
      this.#child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      // Locally the tmux client is ours to end at once; a host's ssh ends when the far client does.
      if (this.#host === undefined) this.#child.kill('SIGTERM');
    });
  }

  get #waitedOn(): boolean {
    return this.#queue.length > 0 || this.#watches.size > 0;
  }

  /** Something begins to wait on an idle connection: silence is counted from now, not from its last byte. */
  #startWaiting(): void {
    if (!this.#waitedOn) this.#silence?.heard();
  }

  /**
   * Ends a connection whose link is down: what waits on it fails now with `error`, and the local
   * process (ssh) is killed, since it would wait for the silent far side to acknowledge an EOF.
   */
  drop(error: TmuxLinkSilentError): void {
    if (this.#closed !== undefined) return;
    this.#silent = error;
    this.#shutdown(error.message, error);
    this.#child.kill('SIGKILL');
  }

  #dispatch(event: ControlEvent): void {
    switch (event.type) {
      case 'reply':
        this.#reply(event.reply);
        return;
      case 'output': {
        const watch = this.#watches.get(event.paneId);
        if (!watch) return;
        const text = watch.decoder.write(event.data);
        if (text) for (const listener of watch.listeners) listener(text, event.ageMs);
        return;
      }
      case 'exit':
        this.#shutdown(event.reason ? `tmux detached the client: ${event.reason}` : 'tmux detached the client', undefined, true);
        return;
      case 'notification':
        if (event.name === 'pause') this.#resume(event.args);
        for (const listener of this.#notificationListeners) listener(event.name, event.args);
    }
  }

  /**
   * tmux paused a pane for this client (its output waited longer than pause-after) and threw away
   * what was queued: the watches hear of the gap, and output flows again from where the pane is now.
   */
  #resume(paneId: string): void {
    for (const listener of this.#watches.get(paneId)?.listeners ?? []) listener('', 0, true);
    // Unwatched panes too: a pane left paused would send nothing to a watch that starts later.
    this.runReply(['refresh-client', '-A', `${paneId}:continue`], CONTINUE_TIMEOUT_MS).catch(() => {});
  }

  #reply(reply: ControlReply): void {
    if (reply.flags === 0) {
      // The attach command's own block: the connection is ready, unless tmux refused it (it then
      // ends this client; a command written to it meanwhile would be lost with it).
      if (!this.#attached && !reply.ok) {
        this.#shutdown('tmux refused the attach', new TmuxAttachRefusedError(reply.body.toString('utf8').trim()));
        return;
      }
      if (!this.#attached) {
        this.#attached = true;
        this.#silence?.start();
        this.#onAttached?.();
      }
      return;
    }
    const pending = this.#queue.shift();
    if (!pending) return;
    if (!pending.settled && pending.atReply) {
      try {
        pending.atReply(reply);
      } catch {
        // A caller's mistake must not stop this connection's parsing; its promise still settles below.
      }
    }
    if (reply.ok) this.#settle(pending, undefined, reply);
    else this.#settle(pending, new TmuxCommandError(pending.command, reply.body.toString('utf8').trim()));
  }

  #settle(pending: Pending, error: Error | undefined, reply?: ControlReply): void {
    if (pending.settled) return;
    pending.settled = true;
    clearTimeout(pending.timer);
    if (error) pending.reject(error);
    else pending.resolve(reply!);
  }

  /**
   * `detached`: tmux said %exit, so every command it ran was answered before that line, and the
   * ones still queued never ran. Without %exit (the process died) nothing can be said of them.
   */
  #shutdown(reason: string, error?: Error, detached = false): void {
    if (this.#closed !== undefined) return;
    this.#closed = reason;
    this.#silence?.stop();
    const failure = error ?? new TmuxConnectionLostError(reason);
    if (!this.#attached) this.#onAttached?.(failure);
    this.#queue.splice(0).forEach((pending, i) => {
      const neverRan = detached && !(i === 0 && this.#parser.inReply);
      this.#settle(pending, neverRan ? new TmuxConnectionLostError(reason, true) : failure);
    });
    this.#watches.clear();
    for (const listener of this.#closeListeners) listener(reason);
    this.#closeListeners.clear();
    if (this.#child.exitCode === null && this.#child.signalCode === null) {
      this.#child.stdin.end();
      // Not before tmux answered the attach (see close()): the EOF ends it once tmux runs again.
      if (this.#attached) setTimeout(() => this.#child.kill('SIGKILL'), 1000).unref();
    }
  }
}
