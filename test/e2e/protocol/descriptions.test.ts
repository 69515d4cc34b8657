/**
 * Every tool description of the three profiles, read as an agent reads them (tools/list through
 * the SDK client, every tool on): no sentence that starts mid-thought (". and the call returns"),
 * and every snake_case name a description mentions is something the agent can find in that
 * profile: one of its tools, or an argument or result field of the tool described.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allToolArgs } from '../../fixture/julia.js';
import { startMcp } from '../../fixture/mcp.js';
import { ALL_TOOLSETS } from '../../fixture/python.js';
import { privateTmux } from '../../fixture/tmux.js';

type Listed = { name: string; description?: string; inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown> };

/** Words a sentence may begin with besides names: tmux itself, and the JSON values an argument takes. */
const SENTENCE_WORDS = new Set(['tmux', 'null', 'true', 'false']);

/**
 * Other snake_case names descriptions rightly use: tmux's own (format variables, options),
 * example values, error codes, and fields of results whose contract gives no output schema.
 * A name outside these and the profile's tools and fields is a reference the agent cannot follow.
 */
const OTHER_NAMES: Readonly<Record<string, readonly string[]>> = {
  libtmux: [
    'pane_current_command',
    'pane_in_mode',
    'pane_pid',
    'pane_tty',
    'session_name',
    'socket_path',
    'window_index',
    'window_layout',
    'pane_title',
    'cursor_x',
    'history_size',
    'global_session',
    'global_window',
    'my_flag',
    'tests_done',
    'build_done',
  ],
  python: [
    'content',
    'pane_mode',
    'pane_in_mode',
    'pane_index',
    'window_index',
    'pane_pid',
    'pane_tty',
    'scroll_position',
    'content_truncated',
    'content_truncated_lines',
    'lines_missed',
    'truncated_lines',
    'truncated_bytes',
    'matched_lines',
    'any_output',
    'window_zoomed_flag',
    'client_termname',
    'pane_dead',
    'window_layout',
    'fish_private_mode',
    'libtmux_mcp_',
    'my_option',
    'build_done',
  ],
  julia: ['ownership_required'],
};

/** Every property name in a JSON schema, at any depth. */
function fieldNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) fieldNames(item, into);
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && value && typeof value === 'object') for (const name of Object.keys(value)) into.add(name);
      fieldNames(value, into);
    }
  }
  return into;
}

/** What is wrong with the descriptions of `tools` (the tool's own and its arguments'). */
function problems(profile: string, tools: readonly Listed[]): string[] {
  const found: string[] = [];
  const toolNames = new Set(tools.map((tool) => tool.name));
  for (const tool of tools) {
    const fields = fieldNames([tool.inputSchema, tool.outputSchema]);
    const known = (word: string) => toolNames.has(word) || fields.has(word) || OTHER_NAMES[profile]!.includes(word);
    const texts = [tool.description ?? '', ...collectDescriptions(tool.inputSchema)];
    for (const text of texts) {
      // A sentence begins with a capital, a quote or code, or with a name the agent can look up
      // (an ellipsis "..." or an abbreviation "e.g." ends no sentence).
      for (const match of text.matchAll(/(?<![.]|e\.g|i\.e|etc)\.\s+([a-z][a-z0-9_]*)\b/g)) {
        const word = match[1]!;
        if (!known(word) && !SENTENCE_WORDS.has(word))
          found.push(
            `${profile} ${tool.name}: a sentence starts with "${word}": …${text.slice(Math.max(0, match.index - 40), match.index + 40)}…`,
          );
      }
      for (const match of text.matchAll(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+_?(?![a-z0-9_])/g)) {
        if (!known(match[0]))
          found.push(`${profile} ${tool.name}: mentions "${match[0]}", which is neither a ${profile} tool nor one of its fields`);
      }
      if (text.includes('  ')) found.push(`${profile} ${tool.name}: a double space in "${text.slice(0, 60)}…"`);
    }
  }
  return found;
}

function collectDescriptions(schema: unknown, into: string[] = []): string[] {
  if (Array.isArray(schema)) for (const item of schema) collectDescriptions(item, into);
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'description' && typeof value === 'string') into.push(value);
      else collectDescriptions(value, into);
    }
  }
  return into;
}

test('every tool description of the three profiles reads whole and names only what the agent can find', async (t) => {
  const tmux = privateTmux(t);
  const runs: Array<[string, string[], NodeJS.ProcessEnv]> = [
    ['libtmux', [], { LIBTMUX_TOOLSETS: ALL_TOOLSETS }],
    ['python', ['--profile', 'python'], { LIBTMUX_TOOLSETS: ALL_TOOLSETS }],
    ['julia', ['--profile', 'julia', ...allToolArgs(), '--allow-create'], {}],
  ];
  const found: string[] = [];
  for (const [profile, args, env] of runs) {
    const mcp = await startMcp(t, { env: { ...tmux.env, ...env }, args });
    const { tools } = await mcp.client.listTools();
    found.push(...problems(profile, tools as unknown as Listed[]));
    await mcp.close();
  }
  assert.deepEqual(found, []);
});
