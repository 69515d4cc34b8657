/**
 * Inbound JSON limits a contract may set on every message, checked on the raw text before it is
 * parsed, so a hostile message costs a bounded scan and never a deep or huge parse: its size in
 * UTF-8 bytes, its nesting depth, its number of tokens, and no object naming a key twice (JSON.parse
 * would silently keep the last one). Used by the stdio line reader and the HTTP gate alike.
 */
import { isUtf8 } from 'node:buffer';

export interface JsonLimits {
  /** The largest message, in UTF-8 bytes. */
  readonly maxBytes: number;
  /** The deepest nesting of objects and arrays. */
  readonly maxDepth: number;
  /** The most tokens: strings (keys included), numbers, literals, and each object or array opened. */
  readonly maxTokens: number;
  /** The message of the -32700 answer to a message over a limit, not UTF-8, or not JSON. */
  readonly message: string;
}

/** The JSON-RPC code a message over the limits, or not JSON at all, is answered with. */
export const PARSE_ERROR = -32700;

/** Why raw `bytes` break the limits, or undefined (bad JSON syntax is left to JSON.parse). */
export function jsonBytesProblem(bytes: Buffer, limits: JsonLimits): string | undefined {
  if (bytes.length > limits.maxBytes) return `longer than ${limits.maxBytes} bytes`;
  if (!isUtf8(bytes)) return 'not valid UTF-8';
  return jsonTextProblem(bytes.toString('utf8'), limits);
}

/** One object or array open around the scan position. */
interface Frame {
  /** An object's keys so far; undefined for an array. */
  readonly keys?: Set<string>;
  /** In an object: the next string is a key. */
  expectKey: boolean;
}

/** Why `text` is nested too deep, has too many tokens or a duplicate key; undefined when none. */
export function jsonTextProblem(text: string, limits: Omit<JsonLimits, 'maxBytes' | 'message'>): string | undefined {
  const frames: Frame[] = [];
  let tokens = 0;
  let inScalar = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      tokens++;
      inScalar = false;
      const top = frames[frames.length - 1];
      if (top?.keys && top.expectKey) {
        const key = decodeString(text.slice(i, end + 1));
        if (key === undefined) return undefined; // malformed: JSON.parse says so
        if (top.keys.has(key)) return `duplicate key ${JSON.stringify(key.slice(0, 64))}`;
        top.keys.add(key);
        top.expectKey = false;
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      tokens++;
      inScalar = false;
      frames.push(c === OPEN_OBJECT ? { keys: new Set(), expectKey: true } : { expectKey: false });
      if (frames.length > limits.maxDepth) return `nested deeper than ${limits.maxDepth} levels`;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      inScalar = false;
      frames.pop();
    } else if (c === COMMA) {
      inScalar = false;
      const top = frames[frames.length - 1];
      if (top?.keys) top.expectKey = true;
    } else if (c === COLON || c === SPACE || c === TAB || c === LF || c === CR) {
      inScalar = false;
    } else if (!inScalar) {
      inScalar = true;
      tokens++;
    }
    if (tokens > limits.maxTokens) return `more than ${limits.maxTokens} tokens`;
  }
  return undefined;
}

/** The index of the quote closing the string that opens at `start` (the text's end when unclosed). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return text.length;
}

function decodeString(literal: string): string | undefined {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return undefined;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
