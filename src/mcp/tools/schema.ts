/**
 * Small builders for the JSON Schemas that contracts publish. They emit plain JSON Schema, key for
 * key, so a declaration reads like the contract it must equal, and each carries the TypeScript type
 * of the values it accepts (`Static<typeof schema>`), so a handler's arguments are never typed twice.
 * `description` is ours to write.
 */

export type JsonSchema = { readonly [key: string]: unknown };

declare const STATIC: unique symbol;
/** A JSON Schema that knows the type of what it accepts; the type is for the compiler only, never on the wire. */
export type Schema<T = unknown> = JsonSchema & { readonly [STATIC]: T };
/** The type a schema accepts (`unknown` for a schema written by hand). */
export type Static<S> = S extends { readonly [STATIC]: infer T } ? T : unknown;

/** Gives a plain schema its static type: for the few a builder does not cover. */
export const typed = <T>(schema: JsonSchema): Schema<T> => schema as Schema<T>;

type Extra = { readonly description?: string; readonly [keyword: string]: unknown };
type Flat<T> = { [K in keyof T]: T[K] } & {};
/** The object `properties` describe, with the `required` keys present and the rest optional. */
export type ObjectOf<P, R extends keyof P> = Flat<{ [K in R]: Static<P[K]> } & { [K in Exclude<keyof P, R>]?: Static<P[K]> }>;

type Scalars = { string: string; integer: number; number: number; boolean: boolean };

export const string = (extra: Extra = {}) => typed<string>({ type: 'string', ...extra });
export const integer = (extra: Extra = {}) => typed<number>({ type: 'integer', ...extra });
export const number = (extra: Extra = {}) => typed<number>({ type: 'number', ...extra });
export const boolean = (extra: Extra = {}) => typed<boolean>({ type: 'boolean', ...extra });
export const nullable = <K extends keyof Scalars>(type: K, extra: Extra = {}) =>
  typed<Scalars[K] | null>({ type: [type, 'null'], ...extra });
export const array = <S extends JsonSchema>(items: S, extra: Extra = {}) => typed<Static<S>[]>({ type: 'array', items, ...extra });
export const enumOf = <const V extends readonly string[]>(values: V, extra: Extra = {}) =>
  typed<V[number]>({ type: 'string', enum: [...values], ...extra });
/** A string-keyed map whose values match `values`. */
export const record = <S extends JsonSchema>(values: S, extra: Extra = {}) =>
  typed<Record<string, Static<S>>>({ type: 'object', additionalProperties: values, ...extra });

/**
 * A closed object. `required` lists the keys that must be present; every contract object here is
 * `additionalProperties: false` and always spells `required`, even when empty.
 */
export function object<P extends Readonly<Record<string, JsonSchema>>, R extends keyof P & string = never>(
  properties: P,
  required: readonly R[] = [],
  extra: Extra = {},
): Schema<ObjectOf<P, R>> {
  return typed({ type: 'object', properties, required: [...required], additionalProperties: false, ...extra });
}

/** The same schema with every `description` removed (contracts compare without prose). */
export function withoutDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDescriptions);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description' && typeof value === 'string') continue;
    // Inside `properties` every key is a property name, never the `description` keyword.
    out[key] = key === 'properties' ? mapValues(value, withoutDescriptions) : withoutDescriptions(value);
  }
  return out;
}

function mapValues(value: unknown, fn: (v: unknown) => unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return fn(value);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fn(v)]));
}
