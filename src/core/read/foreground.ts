/**
 * What a pane runs in its foreground and where, read from this machine's /proc exactly as tmux 3.x
 * computes `#{pane_current_command}` and `#{pane_current_path}` on Linux, so tmux does not have to.
 * Those two fields cost tmux more than all the other fields of a pane row together, and tmux does
 * that work on its one thread; reading /proc here costs the same system calls but runs in our
 * process, beside tmux, while tmux lists the rest (see `readAhead`).
 *
 * tmux takes the terminal's foreground process group (tcgetpgrp on the pane's pty), the first
 * argument of that process's command line put through its window-name rules, and that process's
 * working directory (or the terminal session's when it cannot be read). Here the group comes from
 * /proc/<pane pid>/stat: the pane's process is the session leader of the pane's pty (tmux makes it
 * so), and the stat's `tpgid` is the foreground group of that very terminal. Anything this cannot
 * read for certain (another machine's tmux, a pane whose process is gone, a process that left its
 * terminal, a process of another user) is answered `undefined`, and the caller asks tmux instead.
 */
import { closeSync, openSync, readlinkSync, readSync } from 'node:fs';

export interface Foreground {
  readonly command: string;
  readonly path: string;
}

/** A pane's process as tmux lists it: its pid, and the pid of the tmux server that should be its parent. */
export interface PaneProcess {
  readonly pid: number;
  readonly serverPid: number;
}

const buffer = Buffer.allocUnsafe(4096);

/**
 * Open /proc files by path, read again from offset 0 on every listing: /proc regenerates a file's
 * text on each read at its start, so a kept descriptor saves two of the three system calls a read
 * takes (a 200-pane listing reads 400 files). A descriptor stays bound to the process it was opened
 * for: once that process is gone, reading it fails and the path is opened afresh (a new process
 * with the same pid), so no answer ever comes from another process. Bounded, oldest closed first.
 */
const kept = new Map<string, number>();
const MAX_KEPT = 512;

function keptFd(path: string): number {
  let fd = kept.get(path);
  if (fd !== undefined) {
    kept.delete(path); // re-inserted below: most recently used last
  } else {
    fd = openSync(path, 'r');
    if (kept.size >= MAX_KEPT) {
      const [oldest, oldFd] = kept.entries().next().value!;
      kept.delete(oldest);
      closeSync(oldFd);
    }
  }
  kept.set(path, fd);
  return fd;
}

function forget(path: string): void {
  const fd = kept.get(path);
  if (fd === undefined) return;
  kept.delete(path);
  closeSync(fd);
}

/** Up to 4 KiB of a /proc file, or undefined when it cannot be read (gone, not ours). */
function readProc(path: string): Buffer | undefined {
  // A kept descriptor that fails belonged to a process that has ended: the pid may name a new one.
  if (kept.has(path)) return readOnce(path) ?? readOnce(path);
  return readOnce(path);
}

/** One read through the path's kept (or newly opened) descriptor; a failure forgets the descriptor. */
function readOnce(path: string): Buffer | undefined {
  try {
    return buffer.subarray(0, readSync(keptFd(path), buffer, 0, buffer.length, 0));
  } catch {
    forget(path);
    return undefined;
  }
}

interface Stat {
  readonly ppid: number;
  readonly session: number;
  readonly ttyNr: number;
  readonly tpgid: number;
}

/**
 * The fields of /proc/<pid>/stat that matter here, parsed from the bytes: after "pid (comm) " come
 * state, ppid, pgrp, session, tty_nr, tpgid. comm may hold spaces and parentheses, so it ends at
 * the last ')'.
 */
function readStat(pid: number): Stat | undefined {
  const data = readProc(`/proc/${pid}/stat`);
  if (!data) return undefined;
  let at = data.lastIndexOf(0x29) + 4; // past ") S "
  if (at < 4) return undefined;
  const next = (): number => {
    let value = 0;
    let sign = 1;
    if (data[at] === 0x2d) {
      sign = -1;
      at++;
    }
    for (let byte = data[at]!; byte >= 0x30 && byte <= 0x39; byte = data[++at]!) value = value * 10 + byte - 0x30;
    at++; // the space
    return sign * value;
  };
  const ppid = next();
  next(); // pgrp
  const session = next();
  const ttyNr = next();
  return { ppid, session, ttyNr, tpgid: next() };
}

/** The process's name as the kernel keeps it (/proc/<pid>/comm, without the newline). */
function readComm(pid: number): string | undefined {
  return readProc(`/proc/${pid}/comm`)?.toString('utf8').trimEnd();
}

function readCwd(pid: number): string | undefined {
  try {
    // As bytes, then decoded like any tmux output: invalid UTF-8 becomes U+FFFD the same way.
    return (readlinkSync(`/proc/${pid}/cwd`, { encoding: 'buffer' }) as Buffer).toString('utf8');
  } catch {
    return undefined;
  }
}

/** The process's first argument, as raw bytes (empty for a zombie or a kernel thread); valid until the next read. */
function readArgv0(pid: number): Buffer | undefined {
  const data = readProc(`/proc/${pid}/cmdline`);
  if (!data) return undefined;
  const nul = data.indexOf(0);
  return nul === -1 ? data : data.subarray(0, nul);
}

/**
 * tmux's parse_window_name (names.c) on bytes: drop a leading quote and everything from the next
 * one, a leading "exec ", leading spaces and dashes (a login shell's "-bash"), everything from the
 * first space, trailing bytes that are neither alphanumeric nor punctuation in the C locale, and a
 * path's directories.
 */
export function windowName(argv0: Buffer): string {
  let start = 0;
  let end = argv0.length;
  if (argv0[start] === 0x22) start++;
  const quote = argv0.indexOf(0x22, start);
  if (quote !== -1 && quote < end) end = quote;
  if (end - start >= 5 && argv0.toString('latin1', start, start + 5) === 'exec ') start += 5;
  while (start < end && (argv0[start] === 0x20 || argv0[start] === 0x2d)) start++;
  const space = argv0.indexOf(0x20, start);
  if (space !== -1 && space < end) end = space;
  while (end - 1 > start && !isAlnumOrPunct(argv0[end - 1]!)) end--;
  let name = argv0.subarray(start, end);
  if (name[0] === 0x2f) name = basename(name);
  return name.toString('utf8');
}

const isAlnumOrPunct = (byte: number): boolean => byte > 0x20 && byte < 0x7f;

/** POSIX basename: the last component, trailing slashes ignored; "/" stays "/". */
function basename(path: Buffer): Buffer {
  let end = path.length;
  while (end > 1 && path[end - 1] === 0x2f) end--;
  const slash = path.lastIndexOf(0x2f, end - 1);
  return end === 1 ? path.subarray(0, 1) : path.subarray(slash + 1, end);
}

/** tmux's two /proc fields for one pane, or undefined when only tmux can say. */
export function readForeground(pane: PaneProcess): Foreground | undefined {
  if (!(pane.pid > 0)) return undefined;
  const leader = readStat(pane.pid);
  // Not tmux's child (gone, its pid reused, or another machine's pid), no longer leading the pane's
  // terminal session, or without a foreground group: tmux's own answer is needed.
  if (!leader || leader.ppid !== pane.serverPid || leader.session !== pane.pid || leader.ttyNr === 0 || !(leader.tpgid > 0)) return undefined;
  const argv0 = readArgv0(leader.tpgid);
  // An empty command line (the group's leader is a zombie) makes tmux fall back to the pane's own command.
  if (!argv0 || argv0.length === 0) return undefined;
  const command = windowName(argv0);
  const path = readCwd(leader.tpgid) ?? readCwd(leader.session);
  if (path === undefined) return undefined;
  return { command, path };
}

/** True when `serverPid` is a tmux process in this machine's /proc, so pane pids it lists can be read here. */
function isLocalTmuxServer(serverPid: number): boolean {
  if (process.platform !== 'linux' || !(serverPid > 0)) return false;
  return readComm(serverPid)?.startsWith('tmux') ?? false;
}

/**
 * Reads the foreground of listed panes, starting with the panes the same listing answered last
 * time while tmux is still answering it now. A read made after the listing was sent and before its
 * answer arrived is as current as tmux's own would have been (both fall inside the call), and it is
 * keyed by pid, so a pane whose process changed in between is simply read again afterwards.
 */
export class ForegroundReads {
  /** The pane pids each listing (by its command) answered last, most recent last. */
  readonly #lastPids = new Map<string, readonly number[]>();
  /** A tmux server pid this machine's /proc showed to be tmux: its panes can be read here. */
  #localServer: number | undefined;

  /**
   * Whether to read the panes of `listing` here: only for a tmux server on this machine, and only
   * for a listing answered before (its panes are read ahead, while tmux lists the other fields).
   * A pane costs about as much here as the two fields cost tmux, but the two run side by side.
   */
  worthReading(listing: string, serverPid: number): boolean {
    return this.#lastPids.has(listing) && this.#isLocal(serverPid);
  }

  #isLocal(serverPid: number): boolean {
    if (this.#localServer === serverPid) return true;
    if (!isLocalTmuxServer(serverPid)) return false;
    this.#localServer = serverPid;
    return true;
  }

  /** The pane pids `listing` answered, for its next run. */
  remember(listing: string, pids: readonly number[]): void {
    this.#lastPids.delete(listing);
    this.#lastPids.set(listing, pids);
    if (this.#lastPids.size > MAX_LISTINGS) this.#lastPids.delete(this.#lastPids.keys().next().value!);
  }

  /**
   * Reads the panes `listing` answered last time, once the listing's command has gone to tmux (one
   * turn of the event loop: the control client writes what was queued in the previous one).
   */
  async readAhead(listing: string, serverPid: number): Promise<Map<number, Foreground | undefined>> {
    const read = new Map<number, Foreground | undefined>();
    const pids = this.#lastPids.get(listing);
    if (!pids) return read;
    await new Promise((resolve) => setImmediate(resolve));
    for (const pid of pids) read.set(pid, readForeground({ pid, serverPid }));
    return read;
  }

  /** The foreground of each pid (read ahead, or now), remembering them for the listing's next run. */
  complete(listing: string, pids: readonly number[], serverPid: number, ahead: Map<number, Foreground | undefined>): Array<Foreground | undefined> {
    this.remember(listing, pids);
    return pids.map((pid) => (ahead.has(pid) ? ahead.get(pid) : readForeground({ pid, serverPid })));
  }
}

/** Distinct listings remembered (whole server, a session, a window...). */
const MAX_LISTINGS = 32;
