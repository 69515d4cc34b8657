/**
 * Whether a file the caller names for writing (pipe_pane's output) can really be written, checked
 * before tmux is told: tmux starts the pipe's shell in the background and never reports that it
 * failed, so a missing directory or a read-only file would otherwise be a silent success. Only an
 * ordinary file (or a new one in an existing, writable directory) qualifies: never a directory, a
 * device, a FIFO or a file of /proc or /sys, which are not places output is kept.
 */
import { accessSync, constants, lstatSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { invalidArgument } from '../failure.js';

const KERNEL_FILES = /^\/(proc|sys|dev)(\/|$)/;

export function checkWritableFile(path: string, field: string): void {
  const quotedPath = JSON.stringify(path.slice(0, 200));
  const refuse = (why: string) =>
    invalidArgument(
      `${field} ${quotedPath} cannot be written: ${why}`,
      'Give the path of an ordinary file in an existing directory this server may write to.',
    );
  let exists = true;
  try {
    lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw refuse((error as NodeJS.ErrnoException).code ?? 'it cannot be examined');
    exists = false;
  }
  if (exists) {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      throw refuse('it is a symbolic link to nothing');
    }
    const stats = statSync(real);
    if (stats.isDirectory()) throw refuse('it is a directory');
    if (!stats.isFile()) throw refuse('it is not an ordinary file (a device, FIFO or socket)');
    if (KERNEL_FILES.test(real)) throw refuse('it is a kernel file, not a place output is kept');
    try {
      accessSync(real, constants.W_OK);
    } catch {
      throw refuse('it is not writable');
    }
    return;
  }
  const dir = dirname(path);
  let realDir: string;
  try {
    realDir = realpathSync(dir);
  } catch {
    throw refuse(`its directory ${JSON.stringify(dir.slice(0, 200))} does not exist`);
  }
  if (!statSync(realDir).isDirectory()) throw refuse(`${JSON.stringify(dir.slice(0, 200))} is not a directory`);
  if (KERNEL_FILES.test(realDir)) throw refuse('it would be in a kernel file system, not a place output is kept');
  try {
    accessSync(realDir, constants.W_OK | constants.X_OK);
  } catch {
    throw refuse('its directory is not writable');
  }
}
