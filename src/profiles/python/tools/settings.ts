/** Reading tmux settings: options, hooks and environments, by scope. */
import {
  type Engine,
  type HookScope,
  invalidArgument,
  onPane,
  type OptionScope,
  PANE_ID,
  setEnvironment,
  setOption,
  showEnvironment,
  showHooksAt,
  showOption,
  WINDOW_ID,
} from '../../../core/index.js';
import type { ObjectOf } from '../../../mcp/tools/schema.js';
import { modelResult, pythonTool, type Socket } from '../declare.js';
import { choice, defaulted, field, model, optional, params, SESSION_TARGET, SOCKET_NAME } from '../schema.js';
import { checkId, checkTarget, targetedSession } from '../targets.js';

const SCOPES = ['server', 'session', 'window', 'pane'] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_FIELDS = {
  scope: choice(
    SCOPES,
    'Which table: server, session, window or pane options. Required with target. Default: the global session table (tmux finds window options there too by name).',
    { nullable: true },
  ),
  target: optional(
    'string',
    'The object for a session/window/pane scope: a session name (or id like "$0"), a window id ("@1") or a pane id ("%3"). Default: the global table of that scope.',
  ),
  global_: defaulted('boolean', false, 'Read the global value of the scope (tmux -g) even when a target is given. Default false.'),
} as const;

export type ScopedArgs = ObjectOf<typeof SCOPE_FIELDS, never> & Socket;

/** The session a target names: an id like $0, else a name. */
async function targetSession(engine: Engine, target: string): Promise<string> {
  const session = await targetedSession(engine, /^\$\d+$/.test(target) ? { session_id: target } : { session_name: target });
  return session.id;
}

/** A scope and target as the object whose settings are read; undefined target means the global table. */
export async function scopedObject(engine: Engine, args: ScopedArgs): Promise<{ scope: Scope | null; id?: string }> {
  if (args.target != null && args.scope == null)
    throw invalidArgument('scope is required when target is specified', 'Pass scope "session", "window" or "pane" with the target.');
  const scope = args.scope ?? null;
  if (args.target == null || args.global_ || scope === 'server' || scope === null) return { scope };
  if (scope === 'session') return { scope, id: await targetSession(engine, args.target) };
  if (scope === 'window') return { scope, id: checkId(args.target, WINDOW_ID, 'target', '@1') };
  return { scope, id: checkId(args.target, PANE_ID, 'target', '%3') };
}

function optionScope(object: { scope: Scope | null; id?: string }): OptionScope {
  if (object.id !== undefined) {
    if (object.scope === 'session') return { kind: 'session', sessionId: object.id };
    if (object.scope === 'window') return { kind: 'window', windowId: object.id };
    return { kind: 'pane', paneId: object.id };
  }
  if (object.scope === 'server') return { kind: 'server' };
  if (object.scope === 'window' || object.scope === 'pane') return { kind: 'global_window' };
  return { kind: 'global_session' };
}

export const showOptionTool = pythonTool({
  name: 'show_option',
  targets: ['target'],
  title: 'Show tmux Option',
  description:
    'Read one tmux option: e.g. history-limit, mouse, status, remain-on-exit, or a user option "@name". For a session, ' +
    'window or pane target, the value that applies there (inherited from the global value when not set on it). value ' +
    'is a string, a list for array options, or null when unset. To change one use set_option.',
  toolset: 'inspect',
  input: params(
    { option: field('string', 'Option name, like "history-limit" or "@my_option".'), ...SCOPE_FIELDS, socket_name: SOCKET_NAME },
    ['option'],
  ),
  output: model(
    {
      option: field('string', 'The option read.'),
      value: { description: 'Its value: a string, a list of strings for an array option, or null when unset.' },
    },
    ['option', 'value'],
  ),
  async handler(args, { engine }) {
    const object = await scopedObject(engine, args);
    const read = () => showOption(engine, optionScope(object), args.option);
    const rows = object.id === undefined ? await read() : await onPane(engine, object.id, read);
    const value =
      rows.length === 0 ? null : rows.length === 1 && rows[0]!.name === args.option ? rows[0]!.value : rows.map((row) => row.value);
    return modelResult({ option: args.option, value });
  },
});

const HOOK_ENTRIES = model({
  entries: {
    description: 'The hooks set, one row per command.',
    items: model(
      {
        command: field('string', 'The tmux command the hook runs, as tmux prints it.'),
        hook_name: field('string', 'Hook name, e.g. after-new-window or pane-died.'),
        index: optional('integer', "Position in the hook's command array."),
      },
      ['hook_name', 'command'],
    ),
    type: 'array',
  },
});

/** The hooks of the scope args name, as the contract's entries (only `name`'s, when given). */
async function hookEntries(engine: Engine, args: ScopedArgs, name?: string) {
  const hooks = (await hooksFor(engine, args)).filter((h) => name === undefined || h.name === name);
  return modelResult({ entries: hooks.map((h) => ({ hook_name: h.name, index: h.index, command: h.command })) });
}

async function hooksFor(engine: Engine, args: ScopedArgs) {
  const object = await scopedObject(engine, args);
  const scope: HookScope =
    object.id === undefined ? { kind: 'global' } : { kind: object.scope as 'session' | 'window' | 'pane', id: object.id };
  return showHooksAt(engine, scope);
}

export const showHooksTool = pythonTool({
  name: 'show_hooks',
  targets: ['target'],
  title: 'Show tmux Hooks',
  description:
    'List the tmux hooks that are set (commands tmux runs on events such as pane-died or after-new-window): the global ' +
    'ones (both tables tmux keeps them in) by default, or those set on one session, window or pane (scope + target). ' +
    'Read-only: hooks outlive this server, so it offers no tool to set them. For one hook by name use show_hook.',
  toolset: 'inspect',
  input: params({ ...SCOPE_FIELDS, socket_name: SOCKET_NAME }),
  output: HOOK_ENTRIES,
  async handler(args, { engine }) {
    return hookEntries(engine, args);
  },
});

export const showHookTool = pythonTool({
  name: 'show_hook',
  targets: ['target'],
  title: 'Show tmux Hook',
  description:
    'The commands set on one tmux hook (e.g. "pane-died", "after-split-window"), globally or on a session, window or ' +
    'pane (scope + target). An unset hook gives no entries.',
  toolset: 'inspect',
  input: params({ hook_name: field('string', 'Hook name, like "pane-died".'), ...SCOPE_FIELDS, socket_name: SOCKET_NAME }, ['hook_name']),
  output: HOOK_ENTRIES,
  async handler(args, { engine }) {
    if (!/^[a-z][a-z0-9-]{0,63}$/.test(args.hook_name))
      throw invalidArgument(`hook_name must be a tmux hook name like "pane-died", got ${JSON.stringify(args.hook_name.slice(0, 64))}`);
    return hookEntries(engine, args, args.hook_name);
  },
});

export const showEnvironmentTool = pythonTool({
  name: 'show_environment',
  targets: ['session_id', 'session_name'],
  title: 'Show tmux Environment',
  description:
    "The environment tmux gives new panes: the global one, or one session's (session_id, else session_name). A variable " +
    'marked for removal from new panes shows as true. Values may hold secrets. To change one use set_environment.',
  toolset: 'inspect',
  input: params({ ...SESSION_TARGET, socket_name: SOCKET_NAME }),
  output: model(
    {
      variables: {
        additionalProperties: { anyOf: [{ type: 'string' }, { type: 'boolean' }] },
        description: 'NAME to value; true for a variable removed from new panes.',
        type: 'object',
      },
    },
    ['variables'],
  ),
  async handler(args, { engine }) {
    checkTarget(args);
    const sessionId = args.session_id != null || args.session_name != null ? (await targetedSession(engine, args)).id : undefined;
    const environment = await showEnvironment(engine, sessionId);
    return modelResult({ variables: Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, value ?? true])) });
  },
});

export const setOptionTool = pythonTool({
  name: 'set_option',
  targets: ['target'],
  title: 'Set tmux Option',
  description:
    'Set a tmux option: globally (default: the global session table, or with global_ the global table of scope), or on one ' +
    "session, window or pane (scope + target). tmux checks the value against the option's type (numbers, on/off, " +
    "colours). Changes persist in the tmux server and affect the user's view (status line, mouse, history-limit). " +
    'Refused: hooks (commands tmux runs on events; read them with show_hooks), a #(...) shell job or an E:/T: modifier ' +
    'in a value, and while the server is limited to some sessions, server options and formats that reach other ' +
    'sessions. To read an option use show_option.',
  toolset: 'execute',
  input: params(
    {
      option: field('string', 'Option name, like "mouse" or "@my_option".'),
      value: field('string', 'The value, as tmux takes it on its command line ("on", "5000", "red").'),
      ...SCOPE_FIELDS,
      socket_name: SOCKET_NAME,
    },
    ['option', 'value'],
  ),
  output: model(
    { option: field('string', 'The option set.'), status: field('string', '"set".'), value: field('string', 'The value tmux now holds.') },
    ['option', 'value', 'status'],
  ),
  async handler(args, { engine }) {
    const object = await scopedObject(engine, args);
    const write = () => setOption(engine, optionScope(object), args.option, args.value);
    const rows = object.id === undefined ? await write() : await onPane(engine, object.id, write);
    return modelResult({ option: args.option, value: rows.length === 1 ? rows[0]!.value : args.value, status: 'set' });
  },
});

export const setEnvironmentTool = pythonTool({
  name: 'set_environment',
  targets: ['session_id', 'session_name'],
  title: 'Set tmux Environment',
  description:
    'Set a variable in the environment tmux gives new panes: globally, or for one session (session_id, else ' +
    'session_name). Panes started afterwards get it (split_window, create_window, respawn_pane); running shells do not. ' +
    "It outlives this call and reaches the user's own new panes too. To see the table use show_environment.",
  toolset: 'execute',
  input: params(
    {
      name: field('string', 'Variable name (letters, digits, "_").'),
      value: field('string', 'Its value.'),
      ...SESSION_TARGET,
      socket_name: SOCKET_NAME,
    },
    ['name', 'value'],
  ),
  output: model(
    { name: field('string', 'The variable set.'), status: field('string', '"set".'), value: field('string', 'The value tmux now holds.') },
    ['name', 'value', 'status'],
  ),
  async handler(args, { engine }) {
    checkTarget(args);
    const sessionId = args.session_id != null || args.session_name != null ? (await targetedSession(engine, args)).id : undefined;
    const value = await setEnvironment(engine, args.name, args.value, sessionId);
    return modelResult({ name: args.name, value, status: 'set' });
  },
});
