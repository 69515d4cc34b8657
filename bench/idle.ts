/**
 * CPU idle states for the run: like cyclictest, the bench can hold the PM QoS request
 * /dev/cpu_dma_latency at 0, so idle vCPUs poll instead of halting (why: bench/notes.md).
 */
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';

export interface IdleHold {
  /** One line for the report: what was in force. */
  readonly description: string;
  readonly held: boolean;
  release(): void;
}

function cpuidle(): string {
  const base = '/sys/devices/system/cpu/cpuidle';
  const read = (name: string) => (existsSync(`${base}/${name}`) ? readFileSync(`${base}/${name}`, 'utf8').trim() : 'none');
  return `cpuidle driver ${read('current_driver')}, governor ${read('current_governor_ro')}`;
}

export function holdLowLatencyIdle(wanted: boolean): IdleHold {
  const idle = cpuidle();
  if (!wanted) return { held: false, description: `default idle states (${idle}; --low-latency-idle off)`, release() {} };
  let fd: number;
  try {
    fd = openSync('/dev/cpu_dma_latency', 'w');
    writeSync(fd, Buffer.alloc(4)); // a 32-bit 0: no exit latency allowed, so idle CPUs poll
  } catch (error) {
    return {
      held: false,
      description: `default idle states (${idle}; /dev/cpu_dma_latency not writable: ${(error as Error).message})`,
      release() {},
    };
  }
  return {
    held: true,
    description: `PM QoS cpu_dma_latency held at 0 for the run (${idle}): idle CPUs poll instead of halting, for every server measured alike`,
    release: () => closeSync(fd),
  };
}
