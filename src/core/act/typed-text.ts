/**
 * What a pane receives as text, for rules that look at what an agent types (--approve text:REGEX):
 * the send steps of input.ts read back as characters, after tmux's key names, so splitting a word
 * over several keys or spelling Space as a key name reads the same as typing it. Two readings are
 * given, and a rule looks at both: everything in the order sent, and the lines a line editor would
 * hold (Backspace, the cursor keys, C-u and the like applied), so "rmx", BSpace, " -rf" reads as
 * "rm -rf". A reading continues the line earlier input left unfinished, so a word split over two
 * calls reads whole too. History recall, completion and a program's own bindings are not replayed.
 */
import { planKeys, type InputStep, type KeysRequest } from './input.js';

/** Key names whose character is plain text (tmux sends it; a terminal shows it). Lower case, as tmux compares. */
const CHARACTER_OF: Readonly<Record<string, string>> = {
  enter: '\n',
  kpenter: '\n',
  'c-m': '\n',
  '^m': '\n',
  'c-j': '\n',
  '^j': '\n',
  space: ' ',
  tab: '\t',
  'c-i': '\t',
  '^i': '\t',
  'kp/': '/',
  'kp*': '*',
  'kp-': '-',
  'kp+': '+',
  'kp.': '.',
  ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`kp${i}`, String(i)])),
};

/** What a line editor (readline, zle, fish's) does with a key, in its default bindings. */
type Edit = 'back' | 'delete' | 'left' | 'right' | 'home' | 'end' | 'kill-start' | 'kill-end' | 'kill-word' | 'abandon';
const EDIT_OF: Readonly<Record<string, Edit>> = {
  bspace: 'back',
  'c-h': 'back',
  '^h': 'back',
  'c-?': 'back',
  '^?': 'back',
  dc: 'delete',
  delete: 'delete',
  'c-d': 'delete',
  '^d': 'delete',
  left: 'left',
  'c-b': 'left',
  '^b': 'left',
  right: 'right',
  'c-f': 'right',
  '^f': 'right',
  home: 'home',
  'c-a': 'home',
  '^a': 'home',
  end: 'end',
  'c-e': 'end',
  '^e': 'end',
  'c-u': 'kill-start',
  '^u': 'kill-start',
  'c-k': 'kill-end',
  '^k': 'kill-end',
  'c-w': 'kill-word',
  '^w': 'kill-word',
  'c-c': 'abandon',
  '^c': 'abandon',
};

/** What a call types into a pane: the send steps tmux will get (input.ts), read on demand. */
export interface Typed {
  readonly steps: readonly InputStep[];
  /** A command run as a process of its own (a new pane's, a new session's): it continues no pane's line. */
  readonly own?: true;
}

/**
 * The readings of what a pane receives: `sent` in order, `edited` as the lines a line editor keeps,
 * and `unfinished`, the line left without an Enter (what the next input continues).
 */
export interface TypedText {
  readonly sent: string;
  readonly edited: string;
  readonly unfinished: string;
}

/** What typing `request` sends (throws as planKeys does for input that could not be sent). */
export function typedKeys(request: KeysRequest): Typed {
  return { steps: planKeys(request) };
}

/** Text pasted or run as it is (its newlines as Enter), optionally followed by Enter. */
export function typedText(text: string, enter = false): Typed {
  return { steps: planKeys({ keys: [text], literal: true, enter }) };
}

/** A command line tmux starts as a process of its own (split-window, respawn-pane, new-session). */
export function typedCommand(command: string): Typed {
  return { ...typedText(command, true), own: true };
}

/**
 * Reads send steps back as text: characters and key names that stand for characters, then line
 * editing, continuing `pending`, the unfinished line earlier input left (the cursor at its end).
 */
export function readTyped(typed: Typed, pending = ''): TypedText {
  let sent = pending;
  const editor = new LineEditor(pending);
  for (const step of typed.steps) {
    if (step.kind === 'text') {
      sent += step.text;
      editor.type(step.text);
    } else if (step.kind === 'hex') {
      const text = String.fromCharCode(...step.bytes);
      sent += text;
      editor.type(text);
    } else {
      for (const name of step.names) {
        const lower = name.toLowerCase();
        const character = CHARACTER_OF[lower] ?? ([...name].length === 1 ? name : undefined);
        if (character !== undefined) {
          sent += character;
          editor.type(character);
        } else {
          const edit = EDIT_OF[lower];
          if (edit) editor.edit(edit);
        }
      }
    }
  }
  return { sent, edited: editor.text(), unfinished: editor.current() };
}

/** The lines as an emacs-style line editor keeps them: finished lines, and the current one with its cursor. */
class LineEditor {
  readonly #done: string[] = [];
  #line: string[];
  #cursor: number;

  constructor(pending: string) {
    this.#line = [...pending];
    this.#cursor = this.#line.length;
  }

  type(text: string): void {
    for (const char of text) {
      if (char === '\n' || char === '\r') {
        this.#done.push(this.#line.join(''));
        this.#line = [];
        this.#cursor = 0;
      } else {
        this.#line.splice(this.#cursor, 0, char);
        this.#cursor++;
      }
    }
  }

  edit(edit: Edit): void {
    const line = this.#line;
    switch (edit) {
      case 'back':
        if (this.#cursor > 0) line.splice(--this.#cursor, 1);
        break;
      case 'delete':
        line.splice(this.#cursor, 1);
        break;
      case 'left':
        this.#cursor = Math.max(0, this.#cursor - 1);
        break;
      case 'right':
        this.#cursor = Math.min(line.length, this.#cursor + 1);
        break;
      case 'home':
        this.#cursor = 0;
        break;
      case 'end':
        this.#cursor = line.length;
        break;
      case 'kill-start':
        line.splice(0, this.#cursor);
        this.#cursor = 0;
        break;
      case 'kill-end':
        line.length = this.#cursor;
        break;
      case 'kill-word': {
        let start = this.#cursor;
        while (start > 0 && /\s/.test(line[start - 1]!)) start--;
        while (start > 0 && !/\s/.test(line[start - 1]!)) start--;
        line.splice(start, this.#cursor - start);
        this.#cursor = start;
        break;
      }
      case 'abandon':
        this.#line = [];
        this.#cursor = 0;
        break;
    }
  }

  current(): string {
    return this.#line.join('');
  }

  text(): string {
    const current = this.#line.join('');
    return current === '' ? this.#done.map((line) => `${line}\n`).join('') : [...this.#done, current].join('\n');
  }
}
