/**
 * The control-mode connections to one tmux server are made here: the command client, attached once
 * and shared by every call (tried again only a moment after tmux had nothing to attach to), the
 * check on a host that its tmux is one we can drive, and what one silent connection means for the others.
 */
import { checkTmuxVersion } from './binary.js';
import { ControlClient } from './control-client.js';
import { TmuxConnectionLostError, TmuxHostError, type TmuxLinkSilentError, TmuxTimeoutError } from './errors.js';
import type { Launcher } from './launcher.js';
import { OrphanClients } from './orphans.js';

// How long to wait before trying to attach again after tmux said there is nothing to attach to.
const ATTACH_RETRY_MS = 250;

export interface CommandConnectionOptions {
  readonly launcher: Launcher;
  readonly globalArgs: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly commandTimeoutMs: number;
  /** Throws when the local socket is one tmux would destroy; checked before every attach. */
  readonly checkSocket: () => void;
  /** True once the server is closing: a client attached then is closed again at once. */
  readonly closed: () => boolean;
  /** The output-receiving clients, dropped with the command client when a connection goes silent. */
  readonly watchers: () => Iterable<ControlClient>;
  /** Which sessions a client may attach to (undefined: any, tmux's choice); see AttachChoice. */
  readonly attachChoice: () => AttachChoice | undefined;
  /** tmux's sessions now, read without a control client (a spawned tmux): for the choice. */
  readonly listSessions: () => Promise<ReadonlyArray<SessionName>>;
}

export interface SessionName {
  readonly id: string;
  readonly name: string;
}

/**
 * Picks the session a control client attaches to from tmux's sessions: the id of one, or undefined
 * for none (commands then go through a spawned tmux). Set while sessions are limited, so this
 * server's clients never mark a session outside the scope as attached, nor run its client hooks.
 */
export type AttachChoice = (sessions: ReadonlyArray<SessionName>) => string | undefined;

/** No session the choice allows exists (yet): nothing is attached, commands are spawned. */
class NoSessionAllowed extends Error {}

export class CommandConnection {
  readonly #options: CommandConnectionOptions;
  #client: ControlClient | undefined;
  #epoch = 0;
  #connecting: Promise<ControlClient | undefined> | undefined;
  #lastAttachFailure = 0;
  /** Remote tmux clients of connections dropped for silence or a timeout, ended on the next connection. */
  readonly #orphans = new OrphanClients();
  /** The silence that last ended a connection to this host, until a connection is made again. */
  #linkLost: TmuxLinkSilentError | undefined;
  /** On a host: its tmux's version check, made once with the first connection (a failed one is made again). */
  #versionChecked: Promise<void> | undefined;

  constructor(options: CommandConnectionOptions) {
    this.#options = options;
  }

  get #host(): string | undefined {
    return this.#options.launcher.host;
  }

  /** The command client now, if one is attached (it may have closed since). */
  get current(): ControlClient | undefined {
    return this.#client;
  }

  /** Changes whenever commands start going to a different control client (or to none); 0 without one. */
  get epoch(): number {
    return this.#client && !this.#client.closed ? this.#epoch : 0;
  }

  /** On a host whose connection went silent and has not been made again since: that error. */
  get linkLost(): TmuxLinkSilentError | undefined {
    return this.#linkLost;
  }

  /** The reaping of stranded clients begun on the last connection, if any (waited for before closing). */
  get reaping(): Promise<void> | undefined {
    return this.#orphans.reaping;
  }

  /** The command client's attach in flight, if any: closing waits for it (an attach that ends after closing began closes its client). */
  get attaching(): Promise<unknown> | undefined {
    return this.#connecting;
  }

  /** Forgets the command client, for closing it. */
  detach(): ControlClient | undefined {
    const client = this.#client;
    this.#client = undefined;
    return client;
  }

  /** A spawned command may have created the first session: the next call may attach at once. */
  mayAttach(): void {
    this.#lastAttachFailure = 0;
  }

  /** The command client, attaching it when there is none; undefined when there is nothing to attach to. */
  async client(): Promise<ControlClient | undefined> {
    if (this.#client && !this.#client.closed) return this.#client;
    if (Date.now() - this.#lastAttachFailure < ATTACH_RETRY_MS) return undefined;
    this.#connecting ??= this.#commandTarget()
      .then((target) => this.attach(target, false))
      .then((client) => {
        this.#epoch++;
        this.#orphans.reap(client, this.#options.commandTimeoutMs);
        client.onClose(() => {
          this.noteSilence(client);
          if (this.#client === client) this.#client = undefined;
        });
        return (this.#client = client);
      })
      .catch((error: unknown) => {
        this.#lastAttachFailure = Date.now();
        // An unreachable host fails the spawn path the same way: say so now instead of twice as late.
        if (error instanceof TmuxHostError || (this.#host !== undefined && error instanceof TmuxTimeoutError)) throw error;
        return undefined;
      })
      .finally(() => (this.#connecting = undefined));
    // A caller past its deadline may not wait for it: its rejection must not go unhandled.
    this.#connecting.catch(() => {});
    return this.#connecting;
  }

  /** The session the command client attaches to: tmux's choice without an AttachChoice, else the one it picks. */
  async #commandTarget(): Promise<string | undefined> {
    const choose = this.#options.attachChoice();
    if (!choose) return undefined;
    const chosen = choose(await this.#options.listSessions());
    if (chosen === undefined) throw new NoSessionAllowed();
    return chosen;
  }

  /**
   * On a host, checks once that its tmux is one this server can drive (`tmux -V`, 3.3a or newer), so an
   * old or missing one is a clear error naming the host rather than a failed attach. Here: nothing
   * (the local binary is checked at start-up).
   */
  checkVersion(): Promise<void> {
    if (this.#host === undefined) return Promise.resolve();
    this.#versionChecked ??= checkTmuxVersion(this.#options.launcher, this.#options.env, this.#options.commandTimeoutMs).then(
      () => {},
      (error: unknown) => {
        this.#versionChecked = undefined;
        throw error;
      },
    );
    return this.#versionChecked;
  }

  /** A new control client attached to `sessionId` (or to any session). */
  async attach(sessionId: string | undefined, receiveOutput: boolean): Promise<ControlClient> {
    // The check runs beside the first attach, so it costs no extra wait; its failure wins.
    const checked = this.checkVersion();
    checked.catch(() => {});
    const client = await this.#connect(sessionId, receiveOutput).catch(async (error: unknown) => {
      await checked;
      throw error;
    });
    try {
      await checked;
    } catch (error) {
      await client.close();
      throw error;
    }
    this.#linkLost = undefined;
    this.#stayInChoice(client);
    return client;
  }

  /**
   * tmux moves a client whose session is destroyed to another one when `detach-on-destroy` says so:
   * a client moved to a session the choice does not allow is closed (the next call attaches anew).
   */
  #stayInChoice(client: ControlClient): void {
    client.onNotification((name, args) => {
      const choose = this.#options.attachChoice();
      if (name !== 'session-changed' || !choose) return;
      const space = args.indexOf(' ');
      const session = { id: space === -1 ? args : args.slice(0, space), name: space === -1 ? '' : args.slice(space + 1) };
      if (choose([session]) === undefined) void client.close();
    });
  }

  /**
   * One connection to this host went silent: the link is presumed down for all of them (they share
   * it), so every other one is dropped with the same error now: the calls on them fail at once
   * instead of each waiting out its own silence, and the next call connects afresh.
   */
  noteSilence(client: ControlClient): void {
    // A host's client ended by a timeout (its tmux or sshd hung) is left the same way as a silent one.
    if (client.timedOut && this.#host !== undefined && client.pid !== undefined) this.#orphans.add(client.pid);
    if (!client.silent) return;
    this.#linkLost = client.silent;
    if (client.pid !== undefined) this.#orphans.add(client.pid);
    for (const other of [this.#client, ...this.#options.watchers()]) if (other && other !== client) other.drop(client.silent);
  }

  async #connect(sessionId: string | undefined, receiveOutput: boolean): Promise<ControlClient> {
    this.#options.checkSocket();
    const client = await ControlClient.connect({
      launcher: this.#options.launcher,
      globalArgs: this.#options.globalArgs,
      env: this.#options.env,
      target: sessionId,
      // Here no limit: callers stop waiting at their own deadline (byDeadline), and the attach
      // stays pending for the next call instead of a new client per call. On a host, connecting is
      // bounded on its own, so a host that never answers fails every call in seconds.
      ...(this.#options.launcher.connectMs !== undefined ? { connectTimeoutMs: this.#options.launcher.connectMs } : {}),
      receiveOutput,
    });
    if (this.#options.closed()) {
      await client.close();
      throw new TmuxConnectionLostError('the server is shutting down');
    }
    return client;
  }
}
