/** Plain-text views of a listing for a shell: one line per tool, and one tool's arguments from its input schema. */
import type { ListedTool } from './session.js';

/** `name  title`, names padded to one column; the title, else the description's first sentence. */
export function toolLines(tools: readonly ListedTool[]): string {
  const width = Math.max(0, ...tools.map((tool) => tool.name.length));
  return tools.map((tool) => `${tool.name.padEnd(width)}  ${summary(tool)}`.trimEnd()).join('\n') + '\n';
}

function summary(tool: ListedTool): string {
  if (tool.title) return tool.title;
  const description = (tool.description ?? '').replace(/\s+/g, ' ').trim();
  const sentence = /^.*?[.!?](?=\s|$)/.exec(description)?.[0] ?? description;
  return sentence.length > 100 ? `${sentence.slice(0, 99)}…` : sentence;
}

type Schema = Record<string, unknown>;

/** The tool's description, then each argument: its type and bounds, whether it is required, its own description. */
export function toolHelp(tool: ListedTool): string {
  const schema = tool.inputSchema;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const names = Object.keys(properties).sort((a, b) => Number(required.has(b)) - Number(required.has(a)));
  const example = Object.fromEntries(names.filter((name) => required.has(name)).map((name) => [name, exampleOf(properties[name]!)]));
  const lines = [
    `tmux-mcp call ${tool.name} [JSON]${tool.title ? `: ${tool.title}` : ''}`,
    '',
    ...(tool.description ? [tool.description.trim(), ''] : []),
    names.length === 0 ? 'Arguments: none (pass {} or nothing).' : 'Arguments (a JSON object):',
    ...names.flatMap((name) => {
      const property = properties[name]!;
      const head = `  ${name} (${typeOf(property)}${required.has(name) ? ', required' : ''})${bounds(property)}`;
      const said = typeof property.description === 'string' ? [`      ${property.description.replace(/\s+/g, ' ').trim()}`] : [];
      return [head, ...said];
    }),
  ];
  if (names.length > 0) lines.push('', `Example: tmux-mcp call ${tool.name} '${JSON.stringify(example)}'`);
  return lines.join('\n') + '\n';
}

function typeOf(schema: Schema): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  if ('const' in schema) return JSON.stringify(schema.const);
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives)) return alternatives.map(typeOf).join(' or ');
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : typeof schema.type === 'string' ? schema.type : 'any';
  if (type === 'array' && schema.items && typeof schema.items === 'object') return `array of ${typeOf(schema.items as Schema)}`;
  if (type === 'object' && schema.properties && typeof schema.properties === 'object') {
    const inner = schema.properties as Record<string, Schema>;
    const need = new Set((schema.required ?? []) as string[]);
    return `object {${Object.keys(inner)
      .map((key) => `${key}${need.has(key) ? '' : '?'}: ${typeOf(inner[key]!)}`)
      .join(', ')}}`;
  }
  return type;
}

/** Ranges, lengths and defaults, as the schema states them. */
function bounds(schema: Schema): string {
  const parts: string[] = [];
  const range = (low: unknown, high: unknown, what: string) => {
    if (typeof low === 'number' && typeof high === 'number') parts.push(`${what}${low}..${high}`);
    else if (typeof low === 'number') parts.push(`${what}>= ${low}`);
    else if (typeof high === 'number') parts.push(`${what}<= ${high}`);
  };
  range(schema.minimum, schema.maximum, '');
  range(schema.minLength, schema.maxLength, 'length ');
  range(schema.minItems, schema.maxItems, 'items ');
  if (typeof schema.pattern === 'string') parts.push(`matching /${schema.pattern}/`);
  if ('default' in schema) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.length > 0 ? `: ${parts.join(', ')}` : '';
}

/** A placeholder value of the right shape for the example line. */
function exampleOf(schema: Schema): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return '...';
  }
}
