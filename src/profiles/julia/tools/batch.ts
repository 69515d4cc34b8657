/**
 * run_operations: up to 8 calls of the other enabled tools, every one planned (arguments and
 * policy) before any runs, then run in order under the one call deadline, stopping at the first
 * failure. Not atomic: what completed stays done, and the answer says which did.
 */
import { invalidArgument } from '../../../core/index.js';
import { array, integer, object, string, typed, type JsonSchema } from '../../../mcp/tools/schema.js';
import { compileValidator, type Validator } from '../../../mcp/tools/validation.js';
import { PolicyRefusal } from '../app.js';
import { argumentSchema, CHANGE, juliaTool, type JuliaTool, type SchemaSettings } from '../declare.js';
import { envelope, type Payload } from '../envelope.js';
import { errorBranch } from '../schemas.js';

export const RUN_OPERATIONS = 'run_operations';
const MAX_OPERATIONS = 8;

const errorSchema = (errorBranch.properties as Record<string, JsonSchema>).error!;
const completedItem = object({ result: { type: 'object' }, tool: string() }, ['tool', 'result']);
const omittedItem = object({ completed: { const: true }, resultOmitted: { const: true }, tool: string() }, [
  'tool',
  'completed',
  'resultOmitted',
]);
const atIndex = integer({ minimum: 1, maximum: MAX_OPERATIONS });
const limitError = { ...errorSchema, properties: { ...(errorSchema.properties as object), code: { const: 'result_limit' } } };

const output: JsonSchema = {
  type: 'object',
  anyOf: [
    object({ atomic: { const: false }, completed: array(completedItem, { maxItems: 8 }), failedIndex: { type: 'null' } }, [
      'failedIndex',
      'completed',
      'atomic',
    ]),
    object({ atomic: { const: false }, completed: array(completedItem, { maxItems: 8 }), error: errorSchema, failedIndex: atIndex }, [
      'failedIndex',
      'completed',
      'atomic',
      'error',
    ]),
    object({ atomic: { const: false }, completed: array(omittedItem, { maxItems: 8 }), error: limitError, failedIndex: { type: 'null' } }, [
      'completed',
      'atomic',
      'error',
      'failedIndex',
    ]),
    object(
      {
        atomic: { const: false },
        completed: array(omittedItem, { maxItems: 8 }),
        error: limitError,
        failedIndex: atIndex,
        originalError: object({ code: string() }, ['code']),
      },
      ['completed', 'atomic', 'error', 'failedIndex', 'originalError'],
    ),
    errorBranch,
  ],
};

/** What the server checks before planning: the envelope only, so an unknown tool is `tool_denied`, not a schema error. */
const envelopeSchema = object(
  {
    operations: array(object({ tool: string({ maxLength: 64 }), arguments: { type: 'object' } }, ['tool', 'arguments']), {
      minItems: 1,
      maxItems: MAX_OPERATIONS,
    }),
  },
  ['operations'],
);

interface Operation {
  tool: string;
  arguments: Record<string, unknown>;
}

/** run_operations over `tools` (the enabled tools but itself, in enabled order). */
export function runOperations(tools: readonly JuliaTool[], settings: SchemaSettings): JuliaTool {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const validators = new Map<string, Validator>(
    tools.map((tool) => [tool.name, compileValidator(argumentSchema(tool.input(settings)), 'arguments')]),
  );
  return juliaTool({
    name: RUN_OPERATIONS,
    description:
      `Run up to ${MAX_OPERATIONS} calls of the other enabled tools in order, in one request and under one deadline: e.g. ` +
      'send_keys then capture_pane. Every operation is checked first (arguments, targets, permissions); if any is ' +
      'refused nothing runs. Then they run one by one and stop at the first failure: `failedIndex` (1-based) names it ' +
      'and `completed` holds the results before it. Not atomic: completed operations are not undone.',
    mutating: true,
    annotations: CHANGE,
    input: () =>
      object(
        {
          operations: array(
            typed<Operation>({
              oneOf: tools.map((tool) => object({ arguments: tool.input(settings), tool: { const: tool.name } }, ['tool', 'arguments'])),
            }),
            {
              minItems: 1,
              maxItems: MAX_OPERATIONS,
              description: `The calls to make, in order (1 to ${MAX_OPERATIONS}); each names a tool and its arguments.`,
            },
          ),
        },
        ['operations'],
      ),
    output,
    // Each operation is a call of its own tool: asked about on its own, before its turn (--approve).
    items: (args) => args.operations.map((operation) => ({ tool: operation.tool, arguments: operation.arguments })),
    plan(args, app) {
      return args.operations.map((operation, index) => {
        if (operation.tool === RUN_OPERATIONS) throw invalidArgument('nested batches are not supported');
        const tool = byName.get(operation.tool);
        if (!tool) throw new PolicyRefusal('tool_denied', 'tool is not enabled');
        const problem = validators.get(tool.name)!(operation.arguments);
        if (problem) throw invalidArgument(`operations[${index}] (${tool.name}): ${problem}`);
        return { tool, plan: tool.plan(operation.arguments, app), args: operation.arguments };
      });
    },
    async run(plans, call) {
      const completed: Array<{ result: Payload; tool: string }> = [];
      for (const [index, { tool, plan, args }] of plans.entries()) {
        try {
          // A person's time deciding is not the call's: the deadline's clock stops while they are asked.
          if (call.approveItem) await call.deadline.paused(call.approveItem(index));
          const run = () => tool.run(plan, call);
          completed.push({
            result: await call.deadline.race(call.auditItem ? call.auditItem(tool.name, args, run) : run()),
            tool: tool.name,
          });
        } catch (error) {
          const failure = envelope(error, tool.mutating);
          const changed = completed.some((item) => byName.get(item.tool)?.mutating);
          return { failedIndex: index + 1, completed, atomic: false, error: changed ? { ...failure, effects: 'possible' } : failure };
        }
      }
      return { failedIndex: null, completed, atomic: false };
    },
    argumentSchema: envelopeSchema,
    ownsDeadline: true,
  });
}
