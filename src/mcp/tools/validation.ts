/** JSON Schema validation of tool arguments and results, with messages an agent can act on. */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { nearest } from './nearest.js';
import type { JsonSchema } from './schema.js';

/**
 * ajv, loaded by the first tool call (ensureValidation) rather than at start-up: nothing before a
 * call needs it (tools/list only lists schemas), and loading it costs a good part of start-up. A
 * dynamic import, so that the bundle keeps it in a chunk of its own, read only then.
 */
let AjvClass: typeof Ajv | undefined;
let loading: Promise<void> | undefined;

/** Resolves once validators can run; cheap to call again. */
export function ensureValidation(): Promise<void> {
  loading ??= import('ajv').then((ajv) => {
    // ajv is CommonJS: its exports arrive as named exports or on the default one, by loader.
    AjvClass = (ajv as unknown as { Ajv?: typeof Ajv }).Ajv ?? (ajv.default as unknown as { Ajv: typeof Ajv }).Ajv;
  });
  return loading;
}

/** Whether ensureValidation() has finished: a call then need not wait for it. */
export function validationReady(): boolean {
  return AjvClass !== undefined;
}

/**
 * The ajv instances, made when the first validator runs. `check` validates; `explainer` is only
 * for explaining a failure: every error, so an unknown field is named even when a missing required
 * one is found first (a misspelt field is usually both).
 */
let instances: { check: Ajv; explainer: Ajv } | undefined;
function validation(): { check: Ajv; explainer: Ajv } {
  if (instances) return instances;
  if (!AjvClass) throw new Error('a validator ran before ensureValidation() finished');
  // verbose: errors carry their schema value, so a message can name the limit that was crossed.
  // Our schemas are held against the contracts by tests: no meta-schema check and no codegen
  // optimisation, which cost resident memory and no validation speed (bench/notes.md).
  const options = { strict: false, validateFormats: false, verbose: true, validateSchema: false, code: { optimize: false } } as const;
  instances = { check: new AjvClass({ ...options, allErrors: false }), explainer: new AjvClass({ ...options, allErrors: true }) };
  // Contracts bound some strings in UTF-8 bytes rather than characters.
  for (const instance of [instances.check, instances.explainer]) {
    instance.addKeyword({
      keyword: 'x-libtmux-max-utf8-bytes',
      type: 'string',
      schemaType: 'number',
      errors: false,
      validate: (max: number, data: string) => Buffer.byteLength(data, 'utf8') <= max,
    });
  }
  return instances;
}

export type Validator = (value: unknown) => string | undefined;

/** Compiles a schema into a function that answers undefined when valid, or what is wrong. */
export function compileValidator(schema: JsonSchema, what: string): Validator {
  // Compiled on first use: most processes call a few of the many tools, and compiling every schema
  // up front costs start-up time and resident memory for validators that never run.
  let validate: ValidateFunction | undefined;
  let explain: ValidateFunction | undefined;
  return (value) => {
    validate ??= validation().check.compile(schema as object);
    if (validate(value)) return undefined;
    explain ??= validation().explainer.compile(schema as object);
    explain(value);
    return describe(explain.errors?.length ? explain.errors : (validate.errors ?? []), what);
  };
}

/** The first error in words; an unknown field goes first, with the nearest known one and anything else wrong at the same place. */
function describe(errors: ErrorObject[], what: string): string {
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  if (unknown) {
    const field = String(unknown.params.additionalProperty);
    const known = Object.keys((unknown.parentSchema as { properties?: object } | undefined)?.properties ?? {});
    const near = nearest(field, known);
    const missing = errors.find((e) => e.keyword === 'required' && e.instancePath === unknown.instancePath);
    return (
      `${place(unknown, what)} has an unknown field "${field}"` +
      (near ? ` (did you mean "${near}"?)` : known.length ? `; known fields: ${known.join(', ')}` : '') +
      (missing ? `, and is missing the required field "${String(missing.params.missingProperty)}"` : '')
    );
  }
  const error = errors[0];
  if (!error) return `${what} is invalid`;
  const at = place(error, what);
  switch (error.keyword) {
    case 'required':
      return `${at} is missing the required field "${String(error.params.missingProperty)}"`;
    case 'enum':
      return `${at} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'x-libtmux-max-utf8-bytes':
      return `${at} is longer than ${String(error.schema)} UTF-8 bytes`;
    default:
      return `${at} ${error.message ?? 'is invalid'}`;
  }
}

function place(error: ErrorObject, what: string): string {
  return error.instancePath ? `${what}${error.instancePath.replaceAll('/', '.')}` : what;
}
