/**
 * The frame: how a command runs in a shell without the integration (run-command.ts). The command is
 * typed between two markers the shell prints, and the reader finds them in the pane's stream.
 */
import type { PaneStream, StreamPosition } from '../watch/pane-stream.js';
import { renderLine } from '../read/terminal-text.js';
import { linesBetween } from '../watch/watch-stream.js';
import { inSubshell } from './subshell.js';

/** fish gets a frame in its own syntax (see frameFor). */
export const FISH = 'fish';

/**
 * The typed text: markers around the command, on lines of their own. Suppressed, it starts with a
 * space, and for bash the first line also deletes the frame's own history entry, only when the
 * newest entry is this frame (with HISTCONTROL=ignorespace it was never saved, and the user's
 * previous entry must stay). Not suppressed, the frame is typed as is and the shell keeps it.
 * fish has no subshell: its frame runs the command in a child fish (subshell.ts), and fish never
 * saves a line that starts with a space.
 */
export function frameFor(id: string, command: string, shell: string, suppressHistory: boolean): string {
  const body =
    shell === FISH
      ? `command printf '%s%s\\n' ${id} _S; ${inSubshell(FISH, command)}; command printf '%s%s %s\\n' ${id} _E $status\n`
      : `command printf '%s%s\\n' ${id} _S; (\n${command}\n); command printf '%s%s %s\\n' ${id} _E "$?"\n`;
  if (!suppressHistory) return body;
  // Before the start marker, so nothing it might print can land in the command's output.
  const forget = shell === 'bash' || shell === 'rbash' ? ` [[ $(history 1) = *${id}* ]] && history -d $HISTCMD 2>/dev/null;` : '';
  return `${forget} ${body}`;
}

/** Finds the markers of one frame in a stream and the output between them. */
export class FrameReader {
  readonly #stream: PaneStream;
  readonly #start: string;
  readonly #end: RegExp;
  #scanned: number;
  #body: StreamPosition | undefined;
  #endLine: number | undefined;
  #endCol = 0;
  #missed = false;
  status: number | null = null;

  constructor(stream: PaneStream, from: StreamPosition, id: string) {
    this.#stream = stream;
    this.#start = `${id}_S`;
    this.#end = new RegExp(`${id}_E (\\d+)$`);
    this.#scanned = from.line;
  }

  /** Whether the start marker has shown: the shell ran the frame. */
  get started(): boolean {
    return this.#body !== undefined;
  }

  /** Just after the end marker's line, once read. */
  get endPosition(): StreamPosition | undefined {
    return this.#endLine === undefined ? undefined : { line: this.#endLine + 1, col: 0 };
  }

  /** Looks at complete lines not yet seen; true once the end marker has been read. */
  scan(): boolean {
    if (this.#endLine !== undefined) return true;
    const stream = this.#stream;
    const complete = stream.end.line; // lines before this one are finished
    if (this.#scanned < stream.firstLine) {
      this.#missed = true;
      this.#scanned = stream.firstLine;
    }
    for (; this.#scanned < complete; this.#scanned++) {
      const raw = stream.line(this.#scanned) ?? '';
      if (this.#body === undefined) {
        // Preceded by PS2 prompts or a carriage return, so only the end of the line counts.
        if (renderLine(raw).endsWith(this.#start)) this.#body = { line: this.#scanned + 1, col: 0 };
        continue;
      }
      const m = this.#end.exec(raw);
      if (m) {
        this.#endLine = this.#scanned;
        this.#endCol = m.index;
        this.status = Number(m[1]);
        return true;
      }
    }
    return false;
  }

  /** The command's output lines: between the markers, or from the start marker to now while it still runs. */
  output(): { lines: string[]; dropped: number; missed: boolean } {
    const stream = this.#stream;
    if (this.#body === undefined) return { lines: [], dropped: 0, missed: this.#missed };
    const dropped = Math.max(this.#body.line, stream.firstLine) - this.#body.line;
    // Output without a final newline ends on the marker's line, before the marker.
    const end = this.#endLine !== undefined ? { line: this.#endLine, col: this.#endCol } : stream.end;
    return { lines: linesBetween(stream, this.#body, end), dropped, missed: this.#missed };
  }
}
