/** JSON Schema validation of tool arguments and results, with messages an agent can act on. */
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from './schema.js';

/**
 * The one ajv instance, made when the first validator runs: loading ajv takes ~40 ms, a tenth of
 * start-up, and nothing before the first tool call needs it (tools/list only lists schemas).
 * `require` because that load has to happen inside a synchronous validator; ajv is CommonJS.
 */
let ajv: Ajv | undefined;
function validation(): Ajv {
  if (ajv) return ajv;
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
  // verbose: errors carry their schema value, so a message can name the limit that was crossed.
  // The schemas are our own declarations, held against the contracts by tests: checking each against
  // the JSON Schema meta-schema first (validateSchema) would compile that meta-schema too, and with
  // code optimisation it costs ~5.5 MiB of resident memory for no gain (validation speed is the same).
  ajv = new AjvClass({ allErrors: false, strict: false, validateFormats: false, verbose: true, validateSchema: false, code: { optimize: false } });
  // Contracts bound some strings in UTF-8 bytes rather than characters.
  ajv.addKeyword({
    keyword: 'x-libtmux-max-utf8-bytes',
    type: 'string',
    schemaType: 'number',
    errors: false,
    validate: (max: number, data: string) => Buffer.byteLength(data, 'utf8') <= max,
  });
  return ajv;
}

export type Validator = (value: unknown) => string | undefined;

/** Compiles a schema into a function that answers undefined when valid, or what is wrong. */
export function compileValidator(schema: JsonSchema, what: string): Validator {
  // Compiled on first use: most processes call a few of the many tools, and compiling every schema
  // up front costs start-up time and resident memory for validators that never run.
  let validate: ValidateFunction | undefined;
  return (value) => {
    validate ??= validation().compile(schema as object);
    return validate(value) ? undefined : describe(validate.errors ?? [], what);
  };
}

function describe(errors: ErrorObject[], what: string): string {
  const error = errors[0];
  if (!error) return `${what} is invalid`;
  const at = error.instancePath ? `${what}${error.instancePath.replaceAll('/', '.')}` : what;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${at} has an unknown field "${String(error.params.additionalProperty)}"`;
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
