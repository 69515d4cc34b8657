/**
 * When a shell is ready to be typed into with the integration: installing it in a shell found at
 * its prompt, a shell this server started reaching its first prompt, and the prompt being drawn.
 */
import { type Engine, perServer } from '../../engine.js';
import { withPaneInput } from '../input.js';
import { before, type PaneStream } from '../../watch/pane-stream.js';
import type { PaneRecord } from '../../read/records.js';
import { installLine, newNonce, readIntegration, type IntegratedShell, type Integration } from './index.js';
import { lastOwnMark } from './mark-reader.js';

/** Shell processes where installing the integration failed, pane id to pid. */
const installFailed = perServer(() => new Map<string, number>());

/** How long a pane whose shell is about to be back (after C-c, or a program's last words) is waited for, at most. */
export const PROMPT_GRACE_MS = 1000;
export const PROMPT_POLL_MS = 25;
/** How long a found shell gets to source the integration and draw its prompt. */
const INSTALL_MS = 3000;

/** Whether installing the integration already failed in this pane's shell process (framed from then on). */
export function installFailedIn(engine: Engine, pane: PaneRecord): boolean {
  return installFailed(engine).get(pane.id) === pane.pid;
}

/**
 * Installs the integration in a shell found at its prompt: types the line that sources it (out of
 * history, erased by the script once it ran) and waits for the shell's first mark. Undefined when
 * it did not take (a shell that is busy or refuses it): that shell is framed from then on.
 */
export async function install(engine: Engine, pane: PaneRecord, stream: PaneStream, shell: IntegratedShell): Promise<Integration | undefined> {
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

/** Longest wait for a new pane's shell to read its start-up files and show its first prompt. */
const STARTUP_MS = 10_000;
/** After the first prompt is drawn, the time the line editor takes to take over the terminal (text typed earlier is echoed twice). */
const EDITOR_SETTLE_MS = 50;

/**
 * Waits for a shell this server just started to reach its first prompt (the script replaced the
 * announcement), so nothing is typed while the terminal still echoes on its own. A shell that
 * never gets there within the run's time is taken as it is (the command is typed and waits).
 */
export async function startedUp(engine: Engine, pane: PaneRecord, stream: PaneStream, integration: Integration, timeoutMs: number, signal: AbortSignal): Promise<Integration> {
  const deadline = performance.now() + Math.min(timeoutMs, STARTUP_MS);
  let now: Integration | undefined = integration;
  while (now?.starting && performance.now() < deadline && !signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, PROMPT_POLL_MS));
    now = await readIntegration(engine, { ...pane, currentCommand: integration.shell }).catch(() => now);
  }
  if (now === undefined || now.starting) return { shell: integration.shell, nonce: integration.nonce };
  // A shell just started on a loaded machine may take long to draw its first prompt: as long as its start-up may.
  await promptDrawn(stream, now.nonce, signal, true, Math.max(PROMPT_GRACE_MS, deadline - performance.now()));
  await new Promise((resolve) => setTimeout(resolve, EDITOR_SETTLE_MS));
  return now;
}

/**
 * Waits (at most `limitMs`) until the shell's latest mark is its prompt and the prompt has
 * been drawn after it: the line editor then holds the terminal. Typed earlier (the shell still in
 * its prompt hooks, the terminal in cooked mode), the command would be echoed twice.
 */
export async function promptDrawn(stream: PaneStream, nonce: string, signal: AbortSignal, evenUnseen = false, limitMs = PROMPT_GRACE_MS): Promise<void> {
  const ready = () => {
    const last = lastOwnMark(stream, nonce);
    return last?.kind === 'A' && before(last.position, stream.end);
  };
  if ((lastOwnMark(stream, nonce) === undefined && !evenUnseen) || ready()) return;
  await new Promise<void>((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      stop();
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const timer = setTimeout(finish, limitMs);
    const stop = stream.listen(() => {
      if (ready()) finish();
    });
    signal.addEventListener('abort', finish, { once: true });
  });
}
