/**
 * Small builders for the JSON Schemas that contracts publish. They emit plain JSON Schema, key for
 * key, so a declaration reads like the contract it must equal. `description` is ours to write.
 */

export type JsonSchema = { readonly [key: string]: unknown };

type Extra = { readonly description?: string; readonly [keyword: string]: unknown };

export const string = (extra: Extra = {}): JsonSchema => ({ type: 'string', ...extra });
export const integer = (extra: Extra = {}): JsonSchema => ({ type: 'integer', ...extra });
export const number = (extra: Extra = {}): JsonSchema => ({ type: 'number', ...extra });
export const boolean = (extra: Extra = {}): JsonSchema => ({ type: 'boolean', ...extra });
export const nullable = (type: 'string' | 'integer' | 'number' | 'boolean', extra: Extra = {}): JsonSchema => ({
  type: [type, 'null'],
  ...extra,
});
export const array = (items: JsonSchema, extra: Extra = {}): JsonSchema => ({ type: 'array', items, ...extra });
export const enumOf = (values: readonly string[], extra: Extra = {}): JsonSchema => ({
  type: 'string',
  enum: [...values],
  ...extra,
});
/** A string-keyed map whose values match `values`. */
export const record = (values: JsonSchema, extra: Extra = {}): JsonSchema => ({
  type: 'object',
  additionalProperties: values,
  ...extra,
});

/**
 * A closed object. `required` lists the keys that must be present; every contract object here is
 * `additionalProperties: false` and always spells `required`, even when empty.
 */
export function object(
  properties: Readonly<Record<string, JsonSchema>>,
  required: readonly string[] = [],
  extra: Extra = {},
): JsonSchema {
  return { type: 'object', properties, required: [...required], additionalProperties: false, ...extra };
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
