/**
 * The python profile: the surface of the family's Python server (libtmux-mcp 0.1.0a22), served on
 * our engine. Every tool takes `socket_name`, so one process serves many tmux servers, one engine
 * each, through the registry.
 */
import type { Config } from '../../config.js';
import { type EngineRegistry, Failure } from '../../core/index.js';
import type { Profile } from '../../mcp/profile.js';
import { howToEnable, selectGroups, TOOLSETS, whyUnavailable, type Selection } from '../../mcp/tools/selection.js';
import type { PythonContext } from './context.js';
import type { PythonTool } from './declare.js';
import { renderError, renderSuccess } from './errors.js';
import { PYTHON_PROMPTS } from './prompts.js';
import { pythonResourceTemplates } from './resources.js';
import { pythonCompleters } from './completions.js';
import { CALL_READ_TOOLS_BATCH, readToolsBatch } from './tools/batch.js';
import { ALL_TOOLS, BATCHABLE } from './tools/index.js';

/** The tools that answer text only (capture_pane), by name. */
const TEXT_ONLY = new Set(ALL_TOOLS.filter((tool) => tool.textOnly).map((tool) => tool.name));

export const PYTHON_VERSION = '0.1.0a22';

export type PythonProfile = Profile<PythonContext> & { readonly selection: Selection; readonly tools: readonly PythonTool[] };

export function createPythonProfile({ config, registry }: { config: Config; registry: EngineRegistry }): PythonProfile {
  const selection = selectGroups(ALL_TOOLS, {
    toolsets: TOOLSETS,
    defaultToolsets: ['inspect', 'manage', 'execute'],
    chosen: config.toolsets,
    tools: config.tools,
    excludeTools: config.excludeTools,
    readOnly: config.readOnly,
  });
  // Exclusions reach into the batch too: it may call any batchable tool that is not excluded, listed or not.
  const reach = BATCHABLE.filter((name) => !selection.excluded.has(name));
  const bound = ALL_TOOLS.map((tool) =>
    tool.name === CALL_READ_TOOLS_BATCH
      ? readToolsBatch(reach, ALL_TOOLS)
      : tool.name === 'run_command'
        ? withHistoryDefault(tool, config.suppressHistory)
        : tool,
  );
  const tools = bound.filter((tool) => selection.names.has(tool.name));
  const nestedOnlyTools = tools.some((tool) => tool.name === CALL_READ_TOOLS_BATCH)
    ? bound.filter((tool) => reach.includes(tool.name) && !selection.names.has(tool.name))
    : [];
  const completers = pythonCompleters(registry);
  return {
    name: 'python',
    serverInfo: { name: 'tmux', version: PYTHON_VERSION },
    instructions:
      'tmux through MCP: real terminals you can read, type into and wait on. Find panes with list_panes (is_caller marks ' +
      'the pane this server runs in: leave it alone). Run a shell command and get its output and exit status with ' +
      'run_command; drive interactive programs with send_keys, then wait_for_text (always pass stop patterns) instead of ' +
      'sleeping; read with capture_pane, or capture_since to get only what is new. Every tool takes socket_name for ' +
      'another tmux server; list_servers finds them.',
    tools,
    nestedOnlyTools,
    selection,
    context: { registry, suppressHistory: config.suppressHistory },
    resourceTemplates: pythonResourceTemplates(registry, completers),
    // Prompt arguments that name tmux objects complete like the templates' variables.
    prompts: PYTHON_PROMPTS.map((prompt) => ({
      ...prompt,
      arguments: prompt.arguments?.map((arg) => (completers[arg.name] ? { ...arg, complete: completers[arg.name] } : arg)),
    })),
    capabilities: { logging: true, toolsListChanged: true },
    describeUnavailable: (name) => whyUnavailable(ALL_TOOLS, selection, name),
    // As the Python server answers a tool its safety level hides: a tool error the agent reads, saying how to get it.
    answerUnavailable: (name) => {
      const why = howToEnable(ALL_TOOLS, selection, name);
      return why && renderError(new Failure('refused', why.message, why.hint, { touched: false }));
    },
    renderError: (error) => renderError(error),
    renderSuccess: (outcome, tool) => renderSuccess(outcome, TEXT_ONLY.has(tool)),
  };
}

/** run_command advertises the suppress_history default LIBTMUX_SUPPRESS_HISTORY set, as the Python server does. */
function withHistoryDefault(tool: PythonTool, suppress: boolean): PythonTool {
  const properties = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
  if (properties.suppress_history?.default === suppress) return tool;
  const inputSchema = {
    ...tool.inputSchema,
    properties: { ...properties, suppress_history: { ...properties.suppress_history, default: suppress } },
  };
  return { ...tool, inputSchema };
}
