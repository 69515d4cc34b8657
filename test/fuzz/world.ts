/**
 * The tmux the fuzzer works against: a private server whose panes cannot run programs (each runs a
 * loop of `cat` that ignores ^C/^Z, and default-command makes every pane a tool creates the same),
 * while default-shell stays a real shell, so a payload that reached a tmux format (`#(...)`) or a
 * shell would run and leave the canary file behind. Knows every session's ids, names and refs, to
 * tell which sessions a call named, and puts the fixture sessions back when a call removed them.
 */
import { existsSync, writeFileSync, chmodSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { encodeRef } from '../../src/core/targets/refs.js';
import { socketDirectory } from '../../src/tmux/socket-guard.js';
import { PrivateTmux } from '../fixture/tmux.js';
import type { Pools } from './arguments.js';

const FIXTURE_SESSIONS = ['alpha', 'bravo', 'victim'];
const ROW = ['#{session_id}', '#{session_name}', '#{window_id}', '#{window_index}', '#{window_name}', '#{pane_id}', '#{pane_title}'].join(
  '\t',
);

export interface SessionState {
  readonly id: string;
  /** What a call must mention to name this session: its id, name, ref, and its windows' and panes' ids and refs. */
  readonly names: readonly string[];
  /** Its windows and panes, names and titles, one line each. */
  readonly rows: string;
}

export class FuzzWorld {
  readonly tmux = new PrivateTmux();
  readonly canary: string;
  readonly #loop: string;
  #incarnation: { socketPath: string; pid: number; startTime: number } | undefined;

  constructor() {
    this.canary = join(this.tmux.dir, 'canary');
    this.#loop = join(this.tmux.dir, 'no-programs.sh');
    // cat ends on ^D and is started again; it ends for good when the pane's terminal goes (EIO).
    writeFileSync(this.#loop, "#!/bin/sh\ntrap '' INT QUIT TSTP\nwhile cat; do :; done\n");
    chmodSync(this.#loop, 0o755);
  }

  get env(): NodeJS.ProcessEnv {
    return this.tmux.env;
  }

  async start(): Promise<void> {
    // Right after a call stopped the tmux server, the old one may still be going away on the socket
    // (slowly, on a loaded machine): a client that reaches it is told "server exited unexpectedly".
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#start();
      } catch (error) {
        if (attempt >= 50 || !/server exited unexpectedly|no server running/.test((error as Error).message)) throw error;
        await delay(100);
      }
    }
  }

  async #start(): Promise<void> {
    await this.tmux.tmux(
      '-f',
      '/dev/null',
      'start-server',
      ';',
      'set-option',
      '-g',
      'default-command',
      this.#loop,
      ';',
      'set-option',
      '-g',
      'default-shell',
      '/bin/sh',
      ';',
      'set-option',
      '-g',
      'automatic-rename',
      'off',
      ';',
      'set-option',
      '-g',
      'allow-rename',
      'off',
      ';',
      'new-session',
      '-d',
      '-s',
      FIXTURE_SESSIONS[0]!,
      '-x',
      '100',
      '-y',
      '30',
    );
    for (const name of FIXTURE_SESSIONS.slice(1)) await this.tmux.tmux('new-session', '-d', '-s', name, '-x', '100', '-y', '30');
    await this.tmux.tmux('split-window', '-d', '-t', `${FIXTURE_SESSIONS[0]}:`);
    await this.tmux.tmux('new-window', '-d', '-t', `${FIXTURE_SESSIONS[0]}:`);
  }

  /** Fixture sessions back in place, and sessions calls created beyond a few removed. */
  async repair(): Promise<void> {
    const listed = await this.tmux.tmux('list-sessions', '-F', '#{session_id}\t#{session_name}').catch(() => undefined);
    if (listed === undefined) {
      // A call removed the last session, and with it the server.
      this.#incarnation = undefined;
      return this.start();
    }
    const sessions = listed
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t'));
    const names = new Set(sessions.map(([, name]) => name));
    for (const name of FIXTURE_SESSIONS) {
      if (!names.has(name)) await this.tmux.tmux('new-session', '-d', '-s', name, '-x', '100', '-y', '30');
    }
    const extra = sessions.filter(([, name]) => !FIXTURE_SESSIONS.includes(name!));
    if (extra.length > 6) for (const [id] of extra) await this.tmux.tmux('kill-session', '-t', id!).catch(() => {});
  }

  async #identity() {
    const identity = (await this.tmux.tmux('display-message', '-p', '#{socket_path}\t#{pid}\t#{start_time}')).trim().split('\t');
    return { socketPath: identity[0]!, pid: Number(identity[1]), startTime: Number(identity[2]) };
  }

  /** Socket files in tmux's socket directory for names (`-L`): a refused socket name must not add one. */
  socketNames(): string[] {
    const dir = socketDirectory(this.env);
    return existsSync(dir) ? readdirSync(dir) : [];
  }

  canaryExists(): boolean {
    return existsSync(this.canary);
  }

  /** Every pane's row; none when a call stopped the tmux server itself. */
  async #rows(): Promise<string[][]> {
    const listed = await this.tmux.tmux('list-panes', '-a', '-F', ROW).catch((error: Error) => {
      if (/no server running|error connecting/.test(error.message)) return '';
      throw error;
    });
    return listed
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t'));
  }

  /** Every session's state, by id. */
  async snapshot(): Promise<Map<string, SessionState>> {
    const rows = await this.#rows();
    if (rows.length === 0) return new Map();
    const incarnation = (this.#incarnation ??= await this.#identity());
    const bySession = new Map<string, { names: Set<string>; rows: string[] }>();
    for (const [sessionId, sessionName, windowId, windowIndex, windowName, paneId, paneTitle] of rows) {
      let entry = bySession.get(sessionId!);
      if (!entry) {
        entry = { names: new Set([sessionId!, encodeRef('session', sessionId!, incarnation)]), rows: [] };
        if (sessionName) entry.names.add(sessionName).add(JSON.stringify(sessionName).slice(1, -1));
        bySession.set(sessionId!, entry);
      }
      for (const name of [
        windowId!,
        paneId!,
        encodeRef('window', windowId!, incarnation),
        encodeRef('link', `${sessionId}:${windowId}`, incarnation),
        encodeRef('pane', paneId!, incarnation),
      ]) {
        entry.names.add(name);
      }
      entry.rows.push([sessionName, windowId, windowIndex, windowName, paneId, paneTitle].join('\t'));
    }
    return new Map([...bySession].map(([id, entry]) => [id, { id, names: [...entry.names], rows: entry.rows.join('\n') }]));
  }

  /** Targets for generated arguments: live ids and refs, stale refs (another incarnation), garbled refs. */
  async pools(payloads: readonly string[]): Promise<Pools> {
    const snapshot = await this.snapshot();
    const all = [...snapshot.values()].flatMap((session) => session.names);
    const stale = { socketPath: '/nowhere', pid: 1, startTime: 1 };
    const live = (pattern: RegExp, kind: 'pane' | 'window' | 'session') => {
      const ids = all.filter((name) => pattern.test(name));
      const refs = all.filter((name) => name.startsWith('tmux1_'));
      return [
        ...ids,
        ...refs,
        ...ids.slice(0, 2).map((id) => encodeRef(kind, id, stale)),
        ...refs.slice(0, 2).map((ref) => `${ref};`),
        ...refs.slice(0, 1).map((ref) => `${ref.slice(0, -3)}@@@`),
        `${pattern.source.slice(1, 2)}999`,
      ];
    };
    const triples = (await this.#rows()).map(([session, , window, , , pane]) => [session!, window!, pane!] as const);
    return {
      triples,
      panes: live(/^%\d+$/, 'pane'),
      windows: live(/^@\d+$/, 'window'),
      sessions: [...live(/^\$\d+$/, 'session'), ...all.filter((name) => FIXTURE_SESSIONS.includes(name))],
      payloads,
    };
  }

  dispose(): void {
    this.tmux.dispose();
  }
}

/** Strings that would create `canary` if any of them reached a shell, a tmux format or tmux's command parser. */
export function injectionPayloads(canary: string): string[] {
  const touch = `touch ${canary}`;
  return [
    `#(${touch})`,
    `$(${touch})`,
    `\`${touch}\``,
    `; run-shell "${touch}"`,
    `x ; run-shell '${touch}' ;`,
    `x;\nrun-shell '${touch}'\n`,
    `'; ${touch}; '`,
    `"; ${touch}; "`,
    `#[fg=red]#(${touch})`,
    `##(${touch})`,
    `#{run:${touch}}`,
    `-t; run-shell ${touch}`,
    `%0 ; run-shell "${touch}"`,
    `\n${touch}\n`,
    `\u0000; run-shell "${touch}"`,
    `{ run-shell "${touch}" }`,
  ];
}
