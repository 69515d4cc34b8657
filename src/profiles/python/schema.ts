/**
 * JSON Schema builders in the shapes the Python server publishes (pydantic through FastMCP):
 * optional fields are `anyOf [T, null]` with `default: null`, parameter objects are closed and
 * spell `required` only when something is, result models are open, and a bare value (string,
 * list) comes wrapped as `{result}` with `x-fastmcp-wrap-result`. Descriptions are ours.
 */
import { invalidArgument } from '../../core/index.js';
import { typed, type JsonSchema, type ObjectOf, type Schema, type Static } from '../../mcp/tools/schema.js';

type Scalars = { string: string; integer: number; number: number; boolean: boolean };
type Scalar = keyof Scalars;
/** What `optional` and `choice` accept: a scalar's name, or a schema. */
type TypeOf<T> = T extends Scalar ? Scalars[T] : Static<T>;

/** A plain typed field, with a default when the contract gives one. */
export const field = <K extends Scalar>(type: K, description: string, extra: Record<string, unknown> = {}) =>
  typed<Scalars[K]>({ type, description, ...extra });

/** A field with a default other than null, keys in pydantic's order. */
export const defaulted = <K extends Scalar>(type: K, fallback: Scalars[K], description: string) =>
  typed<Scalars[K]>({ default: fallback, description, type });

/** `T | null`, default null (or `fallback`). */
export const optional = <T extends Scalar | JsonSchema>(type: T, description: string, fallback: unknown = null) =>
  typed<TypeOf<T> | null>({
    anyOf: [typeof type === 'string' ? { type } : type, { type: 'null' }],
    default: fallback,
    description,
  });

/** A string enum, or `null` with `nullable`. */
export function choice<const V extends readonly string[]>(
  values: V,
  description: string,
  options: { nullable: true },
): Schema<V[number] | null>;
export function choice<const V extends readonly string[]>(
  values: V,
  description: string,
  options?: { nullable?: false; fallback?: string },
): Schema<V[number]>;
export function choice(
  values: readonly string[],
  description: string,
  options: { nullable?: boolean; fallback?: string } = {},
): JsonSchema {
  return options.nullable
    ? { anyOf: [{ enum: [...values], type: 'string' }, { type: 'null' }], default: null, description }
    : { enum: [...values], type: 'string', description, ...(options.fallback !== undefined ? { default: options.fallback } : {}) };
}

export const stringList = (description: string) => optional(typed<string[]>({ items: { type: 'string' }, type: 'array' }), description);

/** `dict[str, str] | str | None`: a JSON object, or the same object as a JSON string (some clients send that). */
export const stringMap = (description: string) =>
  typed<Record<string, string> | string | null>({
    anyOf: [{ additionalProperties: { type: 'string' }, type: 'object' }, { type: 'string' }, { type: 'null' }],
    default: null,
    description,
  });

/** A stringMap argument as an object (undefined for null): a JSON string is parsed; anything but an object is refused. */
export function stringMapValue(
  value: Record<string, string> | string | null | undefined,
  field: string,
  hint: string,
): Record<string, unknown> | undefined {
  if (value === null || value === undefined) return undefined;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw invalidArgument(`${field} is a string that is not a JSON object`, hint);
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidArgument(`${field} must be a JSON object`, hint);
  return parsed as Record<string, unknown>;
}

/** A timeout argument, in seconds: the contract's schemas let 0 and less through, and that server refuses them. */
export function positiveTimeout(seconds: number): number {
  if (!(seconds > 0)) throw invalidArgument(`timeout must be positive (received ${seconds})`);
  return seconds;
}

/** The arguments object of a tool: closed; `required` only when something is. */
export function params<P extends Readonly<Record<string, JsonSchema>>, R extends keyof P & string = never>(
  properties: P,
  required: readonly R[] = [],
): Schema<ObjectOf<P, R>> {
  return typed({ additionalProperties: false, properties, ...(required.length ? { required: [...required] } : {}), type: 'object' });
}

/** A list, keys in pydantic's order. */
export const listOf = <S extends JsonSchema>(items: S, description: string) => typed<Static<S>[]>({ description, items, type: 'array' });

/** A closed object inside a list (a batch's operation), keys in pydantic's order. */
export function item<P extends Readonly<Record<string, JsonSchema>>, R extends keyof P & string = never>(
  properties: P,
  required: readonly R[],
  description: string,
): Schema<ObjectOf<P, R>> {
  return typed({ additionalProperties: false, description, properties, required: [...required], type: 'object' });
}

/** A result model: open, as pydantic publishes it. */
export function model(
  properties: Readonly<Record<string, JsonSchema>>,
  required: readonly string[] = [],
  description?: string,
): JsonSchema {
  return { properties, ...(required.length ? { required: [...required] } : {}), type: 'object', ...(description ? { description } : {}) };
}

/** A bare result (a string, a list) as FastMCP wraps it into structured content. */
export function wrapped(result: JsonSchema): JsonSchema {
  return { properties: { result }, required: ['result'], type: 'object', 'x-fastmcp-wrap-result': true };
}

export const WRAPPED_TEXT = wrapped({ type: 'string' });

// ---- the targeting fields every tool shares -----------------------------------------------------

export const SOCKET_NAME = optional(
  'string',
  "tmux socket name (tmux -L NAME), for a tmux server other than the configured one; a bare name inside tmux's socket directory, never a path. Default: the configured server.",
);

export const PANE_ID = optional('string', 'Pane id like "%3" (from list_panes). Wins over every other target field.');
export const SESSION_NAME = optional('string', 'Session name, matched exactly. Used when session_id is not given.');
export const SESSION_ID = optional('string', 'Session id like "$0". Wins over session_name.');
export const WINDOW_ID = optional('string', 'Window id like "@1". Wins over window_index and the session fields.');
export const WINDOW_INDEX = optional('string', 'Window index within the session (like "0" or "2"), used when window_id is not given.');

/**
 * How a pane is found when pane_id is not given: window_id, else the session (session_id, else
 * session_name, else the first session), its first window, that window's first pane.
 */
export const PANE_TARGET = {
  pane_id: PANE_ID,
  session_name: SESSION_NAME,
  session_id: SESSION_ID,
  // Pane tools take no window_index: this window_id says nothing of it.
  window_id: optional('string', 'Window id like "@1": its first pane (in index order) is the target. Wins over the session fields.'),
} as const;

export const WINDOW_TARGET = {
  window_id: WINDOW_ID,
  window_index: WINDOW_INDEX,
  session_name: SESSION_NAME,
  session_id: SESSION_ID,
} as const;

export const SESSION_TARGET = { session_name: SESSION_NAME, session_id: SESSION_ID } as const;

export const TARGETING_NOTE =
  'Target: pane_id, or window_id (its first pane), or a session (session_id, else session_name: the first pane of its first window); with none, the first pane of the first window of the first session.';
