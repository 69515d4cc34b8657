/**
 * Semantic-prompt marks (OSC 133) as the integration scripts print them: `A` (prompt drawn), `C`
 * (command starts), `D;<status>` (command ended), each with `tmcp=<nonce>.<n>`: the shell's nonce
 * and its command count; `d=` (C, D) and `r=` (A) carry the digest of a line the server typed. Marks
 * without `tmcp=` (another program's, or a terminal integration of the user's own) are kept with no
 * nonce and never end a run.
 */

export interface ShellMark {
  readonly kind: 'A' | 'B' | 'C' | 'D';
  /** The shell's nonce, when the mark came from this server's integration. */
  readonly nonce?: string;
  /** The shell's command count: for C and D the command's number, for A the number of the last one. */
  readonly n?: number;
  /** D: the command's exit status; A: the shell's `$?` when it drew the prompt. */
  readonly status?: number;
  /** C and D: the digest of the line the server's key accepted (`<crc>-<length>`); A: that of a line of the server's that ran nothing. */
  readonly digest?: string;
  /** Where in the stream it arrived: output before it printed before it. */
  readonly position: { readonly line: number; readonly col: number };
}

const TOKEN = /^tmcp=([A-Za-z0-9]{1,40})\.(\d{1,9})$/;
const DIGEST = /^[dr]=(\d{1,10}-\d{1,9})$/;

/** Reads a mark's payload (after `133;`); undefined for one this server does not know. */
export function parseMark(payload: string, position: ShellMark['position']): ShellMark | undefined {
  const [kind, ...params] = payload.split(';');
  if (kind !== 'A' && kind !== 'B' && kind !== 'C' && kind !== 'D') return undefined;
  let status: number | undefined;
  let nonce: string | undefined;
  let n: number | undefined;
  let digest: string | undefined;
  params.forEach((param, i) => {
    const token = TOKEN.exec(param);
    if (token) {
      nonce = token[1];
      n = Number(token[2]);
    } else if (DIGEST.test(param) && (param[0] === 'r') === (kind === 'A')) digest = param.slice(2);
    else if (kind === 'D' && i === 0 && /^\d{1,3}$/.test(param)) status = Number(param);
    else if (param.startsWith('s=') && /^\d{1,3}$/.test(param.slice(2))) status = Number(param.slice(2));
  });
  return {
    kind,
    position,
    ...(nonce !== undefined ? { nonce, n } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(digest !== undefined ? { digest } : {}),
  };
}
