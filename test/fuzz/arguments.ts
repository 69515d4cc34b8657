/**
 * Tool arguments generated from a tool's input schema with fast-check: values the schema allows
 * (targets drawn from the live tmux objects, stale and garbled refs, and injection payloads in
 * every string), and sets the schema refuses (a required field missing, an unknown field, a wrong
 * type, a number out of range). Whether a set is valid is decided afterwards by ajv, not assumed.
 */
import fc from 'fast-check';

type Schema = { readonly [key: string]: any };

/** Live values a string field may take, by what its name says it holds. */
export interface Pools {
  readonly panes: readonly string[];
  readonly windows: readonly string[];
  readonly sessions: readonly string[];
  /** Strings that must never run: each would create the canary file if it reached a shell or a tmux format. */
  readonly payloads: readonly string[];
  /** Live (session id, window id, pane id) triples, to build targets that disagree (a window of another session). */
  readonly triples?: ReadonlyArray<readonly [string, string, string]>;
}

/** Socket names tmux should never be given (each must be refused before a tmux runs), and the HOST: form of no host. */
export const HOSTILE_SOCKET_NAMES = [
  '-L',
  '-',
  'a\nb',
  '\u001b]2;t\u0007',
  'a b',
  '.',
  '..',
  'x'.repeat(65),
  'é',
  'a;b',
  '#{pane_id}',
  'nohost:',
  'nohost:x',
  ':x',
  'a:b c',
];

/** Whether a socket name is one this server may hand to tmux (the rule under test, stated independently). */
export function sensibleSocketName(name: string): boolean {
  return name.length <= 64 && /^[A-Za-z0-9._][A-Za-z0-9._-]*$/.test(name) && name !== '.' && !name.includes('..');
}

const MiB = 1024 * 1024;

/** Strings with the shapes that broke servers before: controls, NUL, lone surrogates, huge, near-ids. */
function hostileStrings(pools: Pools): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...pools.payloads),
    fc.constantFrom('\u001b]2;t\u0007\u001b[2J', '\u0007', '\u009b31m', 'a\u0008b', '\u007f', ''.padEnd(40, '\u001b[A')),
    fc.constantFrom(
      '',
      ' ',
      '-',
      '--',
      ';',
      '\\;',
      '#',
      '##',
      '#{pane_id}',
      '#[fg=red]',
      '$HOME',
      '${X}',
      '~',
      '\n',
      '\r\n',
      '\t',
      '\u0000',
      'a\u0000b',
      '\u001b[31m',
      '\ud800',
      'x\udfff',
      '\u2028',
      '%',
      '@',
      '$',
      '%-1',
      '@99999999999',
      '$0;kill-server',
      'tmux1_',
      'tmux1_@@@',
      '..',
      '/',
      ':',
      '.',
      '!',
      '{',
      '}',
    ),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.constantFrom('x'.repeat(MiB), `${'#{pane_id}'.repeat(1000)}`, 'é'.repeat(200_000), '\n'.repeat(5000)),
  );
}

/** A string for a field, by its name: targets for target fields, anything for the rest. */
function stringFor(name: string, schema: Schema, pools: Pools): fc.Arbitrary<string> {
  if (schema.pattern) {
    return fc.oneof(
      { weight: 4, arbitrary: fc.stringMatching(new RegExp(schema.pattern)) },
      { weight: 1, arbitrary: hostileStrings(pools) },
    );
  }
  // Never a name tmux would take: that would start servers on the shared socket directory.
  if (/socket_name/.test(name))
    return fc.oneof(
      fc.constantFrom(...HOSTILE_SOCKET_NAMES),
      hostileStrings(pools).filter((text) => !sensibleSocketName(text)),
    );
  const targets = /pane/i.test(name)
    ? pools.panes
    : /window/i.test(name)
      ? pools.windows
      : /session|target/i.test(name)
        ? pools.sessions
        : [];
  const plain = fc.oneof(fc.string({ maxLength: 24 }), fc.constantFrom('echo hi', 'fuzz', 'a b', 'x;', '-n'));
  const options = [
    { weight: 3, arbitrary: plain },
    { weight: 3, arbitrary: hostileStrings(pools) },
  ];
  if (targets.length) options.push({ weight: 10, arbitrary: fc.constantFrom(...targets) });
  return fc.oneof(...options);
}

function integerFor(name: string, schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -(2 ** 31);
  // Waits are bounded by the server's ceiling, but short ones keep the run quick.
  const max = /timeout|wait/i.test(name) ? Math.min(schema.maximum ?? 400, 400) : (schema.maximum ?? 2 ** 31);
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: Math.max(min, -5), max: Math.min(max, 300) }).filter((n) => n >= min) },
    { weight: 1, arbitrary: fc.integer({ min, max: Math.max(min, max) }) },
    { weight: 1, arbitrary: fc.constantFrom(min, Math.max(min, max)) },
  );
}

/** Values the schema allows (mostly: hostile strings may still break a pattern or a length). */
export function valueFor(schema: Schema, pools: Pools, name = ''): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.oneOf || schema.anyOf) return fc.oneof(...(schema.oneOf ?? schema.anyOf).map((s: Schema) => valueFor(s, pools, name)));
  const type = Array.isArray(schema.type) ? schema.type : [schema.type];
  return fc.oneof(...type.map((t: string) => valueOfType(t, schema, pools, name)));
}

function valueOfType(type: string, schema: Schema, pools: Pools, name: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringFor(name, schema, pools);
    case 'integer':
      return integerFor(name, schema);
    case 'number':
      return fc.oneof(integerFor(name, schema), fc.double({ noNaN: true, min: schema.minimum, max: schema.maximum }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueFor(schema.items ?? {}, pools, name), { maxLength: Math.min(schema.maxItems ?? 6, 6) });
    case 'object':
    case undefined:
      return objectFor(schema, pools);
    default:
      return fc.anything();
  }
}

function objectFor(schema: Schema, pools: Pools): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, Schema> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const fields = Object.fromEntries(Object.entries(properties).map(([key, inner]) => [key, valueFor(inner, pools, key)]));
  const record = fc.record(fields, { requiredKeys: [...required].filter((key) => key in fields) }) as fc.Arbitrary<Record<string, unknown>>;
  const disagreeing = disagreeingTargets(Object.keys(properties), pools);
  if (!disagreeing) return record;
  return fc.oneof(
    { weight: 4, arbitrary: record },
    { weight: 1, arbitrary: fc.tuple(record, disagreeing).map(([args, targets]) => ({ ...args, ...targets })) },
  );
}

const SESSION_FIELD = /^(session|session_id)$/;
const WINDOW_FIELD = /^(window|windowId|window_id)$/;
const PANE_FIELD = /^(paneId|pane_id)$/;

/**
 * For a tool that takes a session and a window or pane: targets that disagree, the session one
 * live session and the window or pane live objects of another.
 */
function disagreeingTargets(keys: readonly string[], pools: Pools): fc.Arbitrary<Record<string, string>> | undefined {
  const session = keys.find((key) => SESSION_FIELD.test(key));
  const other = keys.filter((key) => WINDOW_FIELD.test(key) || PANE_FIELD.test(key));
  const triples = pools.triples ?? [];
  const pairs = triples.flatMap((a) => triples.filter((b) => b[0] !== a[0]).map((b) => [a, b] as const));
  if (!session || other.length === 0 || pairs.length === 0) return undefined;
  return fc.constantFrom(...pairs).map(([a, b]) => ({
    [session]: a[0],
    ...Object.fromEntries(other.map((key) => [key, WINDOW_FIELD.test(key) ? b[1] : b[2]])),
  }));
}

/** A set the schema should refuse: one field missing, unknown, of the wrong type, or out of range. */
function brokenFor(schema: Schema, pools: Pools): fc.Arbitrary<unknown> {
  const properties = Object.keys(schema.properties ?? {});
  const required: string[] = schema.required ?? [];
  const wrong = fc.oneof(
    fc.constant(null),
    fc.integer(),
    fc.string({ maxLength: 8 }),
    fc.constant([]),
    fc.constant({}),
    fc.boolean(),
    fc.double(),
  );
  const mutations: Array<fc.Arbitrary<unknown>> = [
    objectFor(schema, pools).map((args) => ({ ...args, [`unknown_${Object.keys(args).length}`]: 1 })),
    wrong.filter((value) => value === null || typeof value !== 'object' || Array.isArray(value)),
  ];
  if (required.length)
    mutations.push(fc.tuple(objectFor(schema, pools), fc.constantFrom(...required)).map(([args, key]) => omit(args, key)));
  if (properties.length)
    mutations.push(
      fc.tuple(objectFor(schema, pools), fc.constantFrom(...properties), wrong).map(([args, key, value]) => ({ ...args, [key]: value })),
    );
  return fc.oneof(...mutations);
}

function omit(args: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _gone, ...rest } = args;
  return rest;
}

/** Arguments for one tool: three sets in four from the schema, one broken. */
export function argumentsFor(schema: Schema, pools: Pools): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: objectFor(schema, pools) }, { weight: 1, arbitrary: brokenFor(schema, pools) });
}
