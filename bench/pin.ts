/**
 * Holding the processes of a comparison to one CPU (taskset): a hand-off between them is then a
 * context switch, not a cross-core wake-up (bench/notes.md). Processes a pinned one starts inherit its CPU.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export interface CpuPin {
  /** For the report: which CPU, or why nothing was pinned. */
  readonly description: string;
  /** Gives every process (all its threads) back the CPUs it had. */
  release(): void;
}

/** Pins `pids` (every thread of each) to the machine's last CPU until release(). */
export function pinToOneCpu(pids: readonly number[]): CpuPin {
  const cpus = os.availableParallelism();
  if (cpus < 2) return { description: 'one CPU: nothing to pin', release: () => {} };
  const cpu = cpus - 1;
  const before = new Map<number, string>();
  try {
    for (const pid of pids) {
      // "pid 123's current affinity mask: 3"
      before.set(pid, execFileSync('taskset', ['-p', String(pid)], { encoding: 'utf8' }).trim().split(' ').at(-1)!);
      execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
    }
  } catch (error) {
    restore(before);
    return { description: `not pinned (taskset: ${(error as Error).message.split('\n')[0]})`, release: () => {} };
  }
  return { description: `pinned to CPU ${cpu} of ${cpus}`, release: () => restore(before) };
}

function restore(masks: ReadonlyMap<number, string>): void {
  for (const [pid, mask] of masks) {
    try {
      execFileSync('taskset', ['-a', '-p', mask, String(pid)], { stdio: 'ignore' });
    } catch {
      // the process has ended
    }
  }
}
