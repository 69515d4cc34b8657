/**
 * When a shell is ready to be typed into with the integration: installing it in a shell found at
 * its prompt, a shell this server started reaching its first prompt, and the shell sitting in its
 * line editor (its prompt drawn, its hooks finished), read afresh from its terminal each time.
 */
import { execFile } from 'node:child_process';
import { readFile, readlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import { type Engine, perServer } from '../../engine.js';
import { withPaneInput } from '../input.js';
import type { PaneStream } from '../../watch/pane-stream.js';
import type { PaneRecord } from '../../read/records.js';
import { installLine, newNonce, readIntegration, type IntegratedShell, type Integration } from './index.js';

/** Shell processes where installing the integration failed, pane id to pid. */
const installFailed = perServer(() => new Map<string, number>());

/** How long a pane whose shell is about to be back (after C-c, or a program's last words) is waited for, at most. */
export const PROMPT_GRACE_MS = 1000;
export const PROMPT_POLL_MS = 25;
const run = promisify(execFile);
/** How long a found shell gets to source the integration and draw its prompt. */
const INSTALL_MS = 3000;

/** Whether installing the integration already failed in this pane's shell process (framed from then on). */
export function installFailedIn(engine: Engine, pane: PaneRecord): boolean {
  return installFailed(engine).get(pane.id) === pane.pid;
}

/**
 * Installs the integration in a shell found at its prompt (in its line editor: lineEditorReady):
 * types the line that sources it (out of history, erased by the script once it ran) and waits for
 * the shell's first mark. Undefined when it did not take (a shell that refuses it): that shell is
 * framed from then on.
 */
export async function install(
  engine: Engine,
  pane: PaneRecord,
  stream: PaneStream,
  shell: IntegratedShell,
): Promise<Integration | undefined> {
  const nonce = newNonce();
  const [geometry] = await engine.run(['display-message', '-p', '-t', pane.id, '#{cursor_x} #{pane_width}']);
  const [x, width] = (geometry ?? '').trim().split(' ').map(Number) as [number, number];
  // The rows the typed line takes from the prompt on, so the script can erase them.
  const length = installLine(shell, nonce, 9).length;
  const rows = width > 0 ? Math.max(1, Math.ceil(((x || 0) + length) / width)) : 1;
  const line = installLine(shell, nonce, rows);
  const from = stream.markCount;
  const prompt = new Promise<boolean>((resolve) => {
    const look = () => {
      for (let i = from; i < stream.markCount; i++) {
        const mark = stream.mark(i);
        if (mark?.kind === 'A' && mark.nonce === nonce) return true;
      }
      return false;
    };
    const timer = setTimeout(() => finish(false), INSTALL_MS);
    const stop = stream.listen((event) => {
      if (look()) finish(true);
      else if (event === 'closed') finish(false);
    });
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      stop();
      resolve(ok);
    };
  });
  await withPaneInput(engine, pane.id, async () => {
    stream.noteInput();
    await engine.run(['send-keys', '-t', pane.id, '-l', '--', '\x15' + line + '\n']);
  });
  if (await prompt) {
    stream.consumed(stream.end);
    return { shell, nonce };
  }
  installFailed(engine).set(pane.id, pane.pid);
  return undefined;
}

/** Longest wait for a shell to read its start-up files, run its prompt hooks and sit in its line editor. */
export const STARTUP_MS = 10_000;

/**
 * Waits for a shell this server just started to reach its first prompt (the script replaced the
 * announcement). A shell that never gets there within the run's time is taken as it is (the
 * command is typed and waits); readiness to type is lineEditorReady's to tell.
 */
export async function startedUp(
  engine: Engine,
  pane: PaneRecord,
  integration: Integration,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Integration> {
  const deadline = performance.now() + Math.min(timeoutMs, STARTUP_MS);
  let now: Integration | undefined = integration;
  while (now?.starting && performance.now() < deadline && !signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, PROMPT_POLL_MS));
    now = await readIntegration(engine, { ...pane, currentCommand: integration.shell }).catch(() => now);
  }
  return now === undefined || now.starting ? { shell: integration.shell, nonce: integration.nonce } : now;
}

/**
 * Waits (at most `limitMs`) until the shell `pid` sits in its line editor: in the foreground of its
 * terminal, which it holds with echo off. bash's readline, zsh's line editor and fish turn echo off
 * only once their prompt hooks have run, so text typed then is read by the editor and shown once;
 * typed earlier, the terminal itself would echo it a second time. False when the limit passed.
 */
export async function lineEditorReady(pid: number, signal: AbortSignal, limitMs: number): Promise<boolean> {
  const deadline = performance.now() + limitMs;
  let pause = PROMPT_POLL_MS;
  for (;;) {
    if (await lineEditorWaits(pid)) return true;
    if (signal.aborted || performance.now() + pause > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 200);
  }
}

/** Whether the shell `pid` waits in its line editor now (see lineEditorReady); true when its terminal cannot be read (not Linux, no stty). */
async function lineEditorWaits(pid: number): Promise<boolean> {
  if (!(await shellInForeground(pid))) return false;
  let tty: string;
  try {
    tty = await readlink(`/proc/${pid}/fd/0`);
  } catch {
    return true;
  }
  // The terminal's local modes (the fourth field of `stty -g`): ECHO is 0o10.
  const modes = await run('stty', ['-F', tty, '-g'], { timeout: 5000 }).then(
    (r) => r.stdout,
    () => undefined,
  );
  const lflag = modes === undefined ? NaN : parseInt(modes.split(':')[3] ?? '', 16);
  return Number.isNaN(lflag) || (lflag & 0o10) === 0;
}

/**
 * Whether the shell `pid` is the foreground process group of its terminal, i.e. at its prompt
 * rather than waiting for a job (Linux /proc; false when that cannot be read, which errs on the
 * side of not typing into a busy pane).
 */
export async function shellInForeground(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid pgrp session tty_nr tpgid ...; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[2] !== undefined && fields[2] === fields[5];
  } catch {
    return false;
  }
}
