/**
 * The line the server types into a shell with the integration, and its digest: the command in its
 * subshell, between the integration's clear key and its accept key (scripts.ts). The shell computes
 * the same digest (POSIX cksum of the line without blanks) from the line it accepted, and carries it
 * in the marks of that line, so a run is tied to the very text typed, never to a count.
 */
import { inSubshell } from '../subshell.js';
import { ACCEPT_KEY, CLEAR_KEY } from './scripts.js';
import type { IntegratedShell } from './index.js';

export interface TypedLine {
  /** What send-keys -l sends. */
  readonly keys: string;
  /** What the shell's marks carry for this line: `<crc>-<length>`. */
  readonly digest: string;
}

/**
 * The keys for `command` in `shell`. A leading space keeps it out of history (the integration drops
 * such lines in bash and zsh; fish never saves them). Several lines go in as one bracketed paste,
 * so the shell reads them as one command line; the space goes before it (fish trims a paste's
 * leading blanks at the start of a line).
 */
export function typedLine(shell: IntegratedShell, command: string, suppressHistory: boolean): TypedLine {
  const line = inSubshell(shell, command);
  const lead = suppressHistory ? ' ' : '';
  const body = line.includes('\n') ? `\x1b[200~${line}\x1b[201~` : line;
  return { keys: `${CLEAR_KEY}${lead}${body}${ACCEPT_KEY}`, digest: lineDigest(line) };
}

/** The digest the scripts print: POSIX cksum (CRC and length) of the line's UTF-8 bytes, blanks removed. */
export function lineDigest(line: string): string {
  const bytes = Buffer.from(line.replace(/[ \t\n]/g, ''), 'utf8');
  let crc = 0;
  const step = (byte: number) => {
    crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  };
  for (const byte of bytes) step(byte);
  for (let n = bytes.length; n > 0; n = Math.floor(n / 256)) step(n & 0xff);
  return `${~crc >>> 0}-${bytes.length}`;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let j = 0; j < 8; j++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    table[i] = c >>> 0;
  }
  return table;
})();
