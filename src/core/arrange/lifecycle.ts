/**
 * Creating tmux objects: sessions, windows, split panes, respawned panes. Every argument is checked
 * before tmux sees it, text tmux would format-expand goes through literalFormat, and the new object
 * is read back from tmux so callers get what tmux actually made (ids, sizes, names).
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { stat } from 'node:fs/promises';
import { TmuxCommandError } from '../../tmux/errors.js';
import { literalFormat } from '../../tmux/formats.js';
import { asFailure, type Failure, invalidArgument, refused, tmuxSaid } from '../failure.js';
import { staleTarget } from '../servers/generation.js';
import type { Engine } from '../engine.js';
import { MAX_WINDOW_CELLS } from './layout.js';
import { checkSessionName, checkWindowName } from './naming.js';
import { checkSpawnOptions, environmentFlags, shellArgument, type SpawnOptions } from './spawn-options.js';
import type { PaneRecord, SessionRecord, WindowRecord } from '../read/records.js';
import { PANE_ID, SESSION_ID, WINDOW_ID } from '../../tmux/ids.js';
import { quoted } from '../quote.js';
import { announce, defaultShellLaunch, integrationFiles, shellLaunch, type Launch } from '../act/shell-integration/index.js';
import { listSessions, listWindows } from '../read/listings.js';
import { guardCaller } from '../targets/caller-guard.js';
import { getPane, getSession, getWindow } from '../targets/resolve.js';

/**
 * How a new pane starts: with the shell integration when it would run tmux's default shell and
 * that is bash, zsh or fish (docs/shell-integration.md); as tmux would start it otherwise.
 */
async function launchFlags(engine: Engine, options: SpawnOptions): Promise<{ flags: string[]; launch: Launch | undefined }> {
  const launch = options.shell === undefined ? await defaultShellLaunch(engine, options.environment).catch(() => undefined) : undefined;
  const extra = launch ? Object.entries(launch.environment).flatMap(([name, value]) => ['-e', `${name}=${value}`]) : [];
  return { flags: [...environmentFlags(options), ...extra], launch };
}

/** The program argument(s) last on the command line: the caller's shell, the integrated launch, or none (tmux's default shell). */
function programFlags(options: SpawnOptions, launch: Launch | undefined): string[] {
  return launch && launch.argv.length > 0 ? ['--', ...launch.argv] : shellArgument(options);
}

/**
 * An existing directory, as an absolute path (`~` and `~/...` mean the home directory). tmux
 * silently starts in another directory when this one is missing, so it is checked here first.
 */
export async function checkStartDirectory(input: string, field = 'startDirectory'): Promise<string> {
  if (input === '') throw invalidArgument(`${field} must not be empty; leave it out to start in the default directory`);
  if (input.includes('\0')) throw invalidArgument(`${field} must not contain NUL bytes`);
  const path = input === '~' ? homedir() : input.startsWith('~/') ? join(homedir(), input.slice(2)) : input;
  if (!isAbsolute(path)) {
    throw invalidArgument(`${field} must be an absolute path (or start with ~/), got ${quoted(input)}`);
  }
  const info = await stat(path).catch(() => undefined);
  if (!info) throw invalidArgument(`${field} ${quoted(input)} does not exist`);
  if (!info.isDirectory()) throw invalidArgument(`${field} ${quoted(input)} is not a directory`);
  return path;
}

function checkSize(value: number | undefined, field: string): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > MAX_WINDOW_CELLS)) {
    throw invalidArgument(`${field} must be a whole number of cells from 1 to ${MAX_WINDOW_CELLS}, got ${value}`);
  }
}

export interface NewSession extends SpawnOptions {
  readonly name: string;
  readonly windowName?: string;
  /** Already checked with checkStartDirectory. */
  readonly startDirectory?: string;
  readonly width?: number;
  readonly height?: number;
  /**
   * The program to run instead of the default shell, as argv (no shell expansion). A single word is
   * run through `/bin/sh -c 'exec "$0"'` so tmux does not read it as shell syntax.
   */
  readonly command?: readonly string[];
}

/** Checks everything about a new session that can be checked without tmux; returns the resolved directory. */
export async function checkNewSession(input: NewSession): Promise<NewSession> {
  checkSessionName(input.name);
  if (input.windowName !== undefined) checkWindowName(input.windowName, 'windowName');
  checkSize(input.width, 'width');
  checkSize(input.height, 'height');
  checkSpawnOptions(input);
  const startDirectory = input.startDirectory === undefined ? undefined : await checkStartDirectory(input.startDirectory);
  return { ...input, startDirectory };
}

/**
 * Creates a detached session running the default shell. Works with no tmux server running: the
 * command then goes through the spawn path, which starts the server, and later commands attach.
 */
export async function createSession(engine: Engine, input: NewSession): Promise<SessionRecord> {
  // The reply names the daemon that made the session, so a server replaced before the session is read back is noticed.
  const command = ['new-session', '-d', '-P', '-F', '#{session_id} #{pid} #{start_time}', '-s', literalFormat(input.name)];
  if (input.windowName !== undefined) command.push('-n', literalFormat(input.windowName));
  if (input.startDirectory !== undefined) command.push('-c', literalFormat(input.startDirectory));
  if (input.width !== undefined) command.push('-x', String(input.width));
  if (input.height !== undefined) command.push('-y', String(input.height));
  // A lone bash, zsh or fish given as the program starts with the shell integration too.
  if (input.command !== undefined) programArgv(input.command); // checked before anything else
  const lone =
    input.command?.length === 1 ? await shellLaunch(engine, input.command[0]!, input.environment).catch(() => undefined) : undefined;
  const { flags, launch } =
    input.command === undefined ? await launchFlags(engine, input) : { flags: environmentFlags(input), launch: lone };
  command.push(...flags);
  if (lone) command.push(...Object.entries(lone.environment).flatMap(([name, value]) => ['-e', `${name}=${value}`]));
  // A program given as argv runs as itself; otherwise the shell the caller chose (or tmux's default).
  if (lone) command.push('--', ...lone.argv);
  else if (input.command !== undefined) command.push('--', ...programArgv(input.command));
  else command.push(...programFlags(input, launch));
  let lines: string[];
  try {
    lines = await engine.run(command);
  } catch (error) {
    if (tmuxSaid(error, /duplicate session/i)) {
      const existing = (await listSessions(engine)).find((s) => s.name === input.name);
      throw refused(
        `a session named ${quoted(input.name)} already exists${existing ? ` (${existing.id})` : ''}`,
        'Pick another name, or use the existing session (create_window adds a window to it).',
      );
    }
    throw error;
  }
  const [id, pid, startTime] = (lines.find((line) => SESSION_ID.test(line.split(' ')[0] ?? '')) ?? '').split(' ');
  const sessionId = createdId(id === undefined ? [] : [id], SESSION_ID, 'new-session');
  const sameDaemon = (identity: { pid: number; startTime: number } | undefined) =>
    identity !== undefined && String(identity.pid) === pid && String(identity.startTime) === startTime;
  let session: SessionRecord;
  try {
    session = await getSession(engine, sessionId);
  } catch (error) {
    if (!sameDaemon(await engine.identity().catch(() => undefined))) throw replacedDaemon(sessionId);
    throw error;
  }
  if (!sameDaemon(session.incarnation)) throw replacedDaemon(sessionId);
  if (launch) await announce(engine, sessionId, launch.integration);
  engine.options.recorder?.actedOn(engine, sessionId);
  return session;
}

/** The session was made, but the tmux server that made it is gone and another answers on its socket. */
function replacedDaemon(sessionId: string): Failure {
  return staleTarget(
    sessionId,
    'The tmux server was replaced right after it created the session, which went with it; create it again.',
    true,
  );
}

/** argv for tmux's shell-command slot: several words are exec'd as they are, one word through sh so tmux does not parse it. */
export function programArgv(argv: readonly string[]): string[] {
  if (argv.length === 0 || argv[0] === '') throw invalidArgument('command executable cannot be empty');
  if (argv[0]!.startsWith('-'))
    throw invalidArgument('command executable cannot start with "-"', 'use ./-name or an absolute executable path');
  // A trailing ';' ends a tmux command when argv reaches tmux unquoted (the spawn path).
  const bad = argv.findIndex((arg) => arg.endsWith(';') || arg.includes('\0'));
  if (bad !== -1) throw invalidArgument(`command[${bad}] ends with ";" or holds NUL, which tmux cannot pass on unchanged`);
  return argv.length === 1 ? ['/bin/sh', '-c', 'exec "$0"', argv[0]!] : [...argv];
}

/** Adds a detached window at the session's next free index; returns that window as linked there. */
export async function createWindow(
  engine: Engine,
  sessionId: string,
  input: SpawnOptions & {
    readonly name?: string;
    readonly startDirectory?: string;
    /** Place it right before or after the session's current window (tmux -b / -a) instead of at the next free index. */
    readonly placement?: 'before' | 'after';
    /** Make it the session's current window. */
    readonly select?: boolean;
  },
): Promise<WindowRecord> {
  checkSpawnOptions(input);
  const command = ['new-window', ...(input.select ? [] : ['-d']), '-P', '-F', '#{window_id}'];
  if (input.placement === 'before') command.push('-b');
  if (input.placement === 'after') command.push('-a');
  command.push('-t', input.placement ? sessionId : `${sessionId}:`);
  if (input.name !== undefined) command.push('-n', literalFormat(input.name));
  if (input.startDirectory !== undefined) command.push('-c', literalFormat(input.startDirectory));
  const { flags, launch } = await launchFlags(engine, input);
  command.push(...flags, ...programFlags(input, launch));
  const windowId = createdId(await engine.run(command), WINDOW_ID, 'new-window');
  if (launch) await announce(engine, windowId, launch.integration);
  engine.options.recorder?.actedOn(engine, windowId);
  const link = (await listWindows(engine, sessionId)).find((w) => w.id === windowId);
  return link ?? getWindow(engine, windowId);
}

export type SplitDirection = 'right' | 'left' | 'above' | 'below';

const SPLIT_FLAGS: Record<SplitDirection, readonly string[]> = {
  right: ['-h'],
  left: ['-h', '-b'],
  below: ['-v'],
  above: ['-v', '-b'],
};

/** Splits a pane; the new pane takes the given side and does not take focus. */
export async function splitPane(
  engine: Engine,
  paneId: string,
  direction: SplitDirection,
  startDirectory?: string,
  options: SpawnOptions & { readonly size?: string } = {},
): Promise<PaneRecord> {
  checkSpawnOptions(options);
  if (options.size !== undefined && !/^\d{1,5}%?$/.test(options.size)) {
    throw invalidArgument(
      `size must be a number of cells like 20 or a percentage like "30%", got ${JSON.stringify(options.size.slice(0, 32))}`,
    );
  }
  const command = ['split-window', '-d', '-P', '-F', '#{pane_id}', ...SPLIT_FLAGS[direction], '-t', paneId];
  if (startDirectory !== undefined) command.push('-c', literalFormat(startDirectory));
  if (options.size !== undefined) command.push('-l', options.size);
  const { flags, launch } = await launchFlags(engine, options);
  command.push(...flags, ...programFlags(options, launch));
  let lines: string[];
  try {
    lines = await engine.run(command);
  } catch (error) {
    if (tmuxSaid(error, /no space|too small/i)) {
      throw refused(
        `pane ${paneId} is too small to split ${direction === 'left' || direction === 'right' ? 'side by side' : 'top to bottom'} (tmux: ${error.message})`,
        'Split another pane, split in the other direction, or make room first (resize_pane, resize_window, kill_pane).',
      );
    }
    throw error;
  }
  const newId = createdId(lines, PANE_ID, 'split-window');
  if (launch) await announce(engine, newId, launch.integration);
  const pane = await getPane(engine, newId);
  engine.options.recorder?.actedOn(engine, pane.id, pane.sessionId);
  // Until the new shell has started tmux cannot read its working directory and reports ''; it is
  // then the directory tmux was told to start it in.
  return pane.currentPath === '' && startDirectory !== undefined ? { ...pane, currentPath: startDirectory } : pane;
}

/**
 * Starts the pane's program again in the same pane (same id). A pane whose program still runs is
 * refused by tmux unless `killFirst`, which ends that program first. The pane this server runs in
 * is refused unless `force`, which also implies `killFirst`.
 */
export async function respawnPane(
  engine: Engine,
  paneId: string,
  options: SpawnOptions & { readonly killFirst?: boolean; readonly force?: boolean; readonly startDirectory?: string },
): Promise<PaneRecord> {
  checkSpawnOptions(options);
  await guardCaller(engine, [paneId], `respawn pane ${paneId}`, options.force);
  const command = ['respawn-pane', '-t', paneId];
  if (options.killFirst || options.force) command.push('-k');
  if (options.startDirectory !== undefined) command.push('-c', literalFormat(options.startDirectory));
  // Without a shell of the caller's, tmux runs the pane's first command again: integrated only when that was the default shell.
  const [startCommand] =
    options.shell === undefined ? await engine.run(['display-message', '-p', '-t', paneId, '#{pane_start_command}']) : [];
  const rerunsShell =
    options.shell === undefined && ((startCommand ?? '').trim() === '' || (startCommand ?? '').includes(integrationFiles().dir));
  const { flags, launch } = rerunsShell ? await launchFlags(engine, options) : { flags: environmentFlags(options), launch: undefined };
  command.push(...flags, ...programFlags(options, launch));
  try {
    await engine.run(command);
    if (launch) await announce(engine, paneId, launch.integration);
  } catch (error) {
    if (tmuxSaid(error, /still active/i)) {
      throw refused(
        `pane ${paneId} is still running its program, so it was left alone`,
        'Pass killFirst: true to end that program and start a fresh one in the pane.',
      );
    }
    throw error;
  }
  engine.options.recorder?.actedOn(engine, paneId);
  return getPane(engine, paneId);
}

/** Turns the window option synchronize-panes on or off (input typed in one pane goes to all). */
export async function setSynchronizePanes(engine: Engine, windowId: string, enabled: boolean): Promise<void> {
  await engine.run(['set-option', '-w', '-t', windowId, 'synchronize-panes', enabled ? 'on' : 'off']);
}

function createdId(lines: readonly string[], pattern: RegExp, command: string): string {
  const id = lines.map((line) => line.trim()).find((line) => pattern.test(line));
  if (!id)
    throw asFailure(
      new TmuxCommandError(
        [command],
        `tmux ${command} did not report the new object's id (got ${JSON.stringify(lines.join('\n').slice(0, 200))})`,
      ),
    );
  return id;
}
