/**
 * Copying a pane's output into a file with tmux's pipe-pane. tmux expands strftime `%` sequences
 * and `#` formats in the command and hands the result to /bin/sh, so the path is first quoted for
 * the shell as one single-quoted word, then escaped for tmux (`%` -> `%%`, `#` runs doubled); nothing
 * else of the caller's reaches the command.
 */
import { isAbsolute } from 'node:path';
import { literalFormat } from '../../tmux/formats.js';
import { shellQuote } from '../../tmux/launcher.js';
import type { Engine } from '../engine.js';
import { invalidArgument } from '../failure.js';
import { checkWritableFile } from './writable-path.js';
import { onPane } from '../targets/resolve.js';

/** Longest path accepted (PATH_MAX). */
const MAX_PIPE_PATH_BYTES = 4096;
// tmux expands a command holding `%` through strftime into an 8 KiB buffer and gives up (an empty
// command) beyond it; the command is held below that.
const MAX_COMMAND_BYTES = 8000;

export interface PipeState {
  readonly paneId: string;
  /** Whether tmux now pipes the pane's output somewhere (this call's file, after a start). */
  readonly piping: boolean;
}

/** Escapes text tmux would expand as strftime and then as a format before running a command. */
function literalTimeFormat(text: string): string {
  return literalFormat(text.replaceAll('%', '%%'));
}

/** The pipe-pane command that writes (appends, or truncates first) the pane's output to `path`. */
export function pipeCommand(path: string, append: boolean): string {
  return literalTimeFormat(`cat ${append ? '>>' : '>'} ${shellQuote(path)}`);
}

function checkPath(path: string, field: string): void {
  if (path.trim() === '') throw invalidArgument(`${field} must be a non-empty path, or null to stop piping`);
  if (path.includes('\0')) throw invalidArgument(`${field} must not contain NUL bytes`);
  if (!isAbsolute(path)) {
    throw invalidArgument(
      `${field} must be an absolute path, got ${JSON.stringify(path.slice(0, 200))}`,
      "The pipe runs in the tmux server's working directory, not the pane's, and ~ is not expanded: give the full path.",
    );
  }
  if (Buffer.byteLength(path) > MAX_PIPE_PATH_BYTES) throw invalidArgument(`${field} is longer than ${MAX_PIPE_PATH_BYTES} bytes`);
}

/**
 * Starts copying everything the pane prints from now on into `path` (absolute; created if
 * missing), replacing any pipe the pane had. `append` (default true) keeps what the file holds.
 * The file gets raw terminal output, escape sequences included.
 */
export async function startPipe(
  engine: Engine,
  paneId: string,
  path: string,
  options: { append?: boolean; field?: string } = {},
): Promise<PipeState> {
  checkPath(path, options.field ?? 'output_path');
  const command = pipeCommand(path, options.append ?? true);
  if (Buffer.byteLength(command) > MAX_COMMAND_BYTES) {
    throw invalidArgument(
      `${options.field ?? 'output_path'} is too long once quoted for the shell and tmux`,
      'Use a shorter path, or fewer quotes, % and # in it.',
    );
  }
  // The pipe's shell runs where the tmux server runs: a path on this machine is checked here.
  if (engine.tmux.host === undefined) checkWritableFile(path, options.field ?? 'output_path');
  await onPane(engine, paneId, () => engine.run(['pipe-pane', '-t', paneId, command]));
  return { paneId, piping: await isPiping(engine, paneId) };
}

/** Stops the pane's pipe, if it has one; the file keeps what was written. */
export async function stopPipe(engine: Engine, paneId: string): Promise<PipeState & { readonly wasPiping: boolean }> {
  const wasPiping = await isPiping(engine, paneId);
  if (wasPiping) await onPane(engine, paneId, () => engine.run(['pipe-pane', '-t', paneId]));
  return { paneId, piping: await isPiping(engine, paneId), wasPiping };
}

/** Whether tmux pipes the pane's output now. */
export async function isPiping(engine: Engine, paneId: string): Promise<boolean> {
  const [flag] = await onPane(engine, paneId, () => engine.run(['display-message', '-p', '-t', paneId, '#{pane_pipe}']));
  return flag === '1';
}
