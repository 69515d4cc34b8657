/**
 * The `filters` argument of the list tools: `{"field__op": "value"}` lookups (Django style, as the
 * Python server takes them) over the fields of each result row; every lookup must hold. A JSON
 * string holding the same object is accepted too (some clients send objects that way).
 */
import { boundedRegex, invalidArgument } from '../../core/index.js';
import { stringMapValue } from './schema.js';

const OPERATORS = [
  'exact',
  'iexact',
  'contains',
  'icontains',
  'startswith',
  'istartswith',
  'endswith',
  'iendswith',
  'regex',
  'iregex',
] as const;
type Operator = (typeof OPERATORS)[number];

export const FILTERS_HELP =
  'Keep only rows whose fields match, e.g. {"session_name": "work"} or {"pane_current_command__icontains": "vim"}: ' +
  `a field name, optionally "__" and an operator (${OPERATORS.join(', ')}; default exact; the i- forms ignore case). ` +
  'Every lookup must hold. A JSON string of the same object works too.';

type Predicate = (row: Record<string, unknown>) => boolean;

/** Keeps the rows every lookup holds for. */
export type RowFilter = <Row extends Record<string, unknown>>(rows: Row[]) => Row[];

/** No lookups: the rows as they are, with no copy. */
const everyRow: RowFilter = (rows) => rows;

/** Checks `filters` (before any tmux runs) and returns what applies them to a listing's rows. */
export function compileFilters(filters: Record<string, string> | string | null | undefined): RowFilter {
  const lookups = stringMapValue(filters, 'filters', `Pass an object such as {"session_name": "work"}. ${FILTERS_HELP}`);
  if (lookups === undefined) return everyRow;
  const tests: Predicate[] = [];
  for (const [key, value] of Object.entries(lookups)) {
    if (typeof value !== 'string') throw invalidArgument(`filters.${key} must be a string`, FILTERS_HELP);
    const at = key.lastIndexOf('__');
    const field = at === -1 ? key : key.slice(0, at);
    const op = (at === -1 ? 'exact' : key.slice(at + 2)) as Operator;
    if (!OPERATORS.includes(op)) {
      throw invalidArgument(
        `Invalid filter operator '${op.slice(0, 32)}' in '${key.slice(0, 96)}'. Valid operators: ${OPERATORS.join(', ')}`,
        FILTERS_HELP,
      );
    }
    tests.push(lookup(field, op, value, key));
  }
  return (rows) => rows.filter((row) => tests.every((test) => test(row)));
}

function lookup(field: string, op: Operator, wanted: string, key: string): Predicate {
  const fold = op.startsWith('i');
  const base = (fold ? op.slice(1) : op) as 'exact' | 'contains' | 'startswith' | 'endswith' | 'regex';
  if (base === 'regex') {
    let re: ReturnType<typeof boundedRegex>;
    try {
      re = boundedRegex(wanted, fold ? 'i' : '');
    } catch (error) {
      throw invalidArgument(`filters.${key} is not a valid regular expression: ${(error as Error).message}`);
    }
    return (row) => row[field] !== undefined && row[field] !== null && re.exec(String(row[field])) !== null;
  }
  const want = fold ? wanted.toLowerCase() : wanted;
  return (row) => {
    if (row[field] === undefined || row[field] === null) return false;
    const have = fold ? String(row[field]).toLowerCase() : String(row[field]);
    switch (base) {
      case 'exact':
        return have === want;
      case 'contains':
        return have.includes(want);
      case 'startswith':
        return have.startsWith(want);
      case 'endswith':
        return have.endsWith(want);
    }
  };
}
