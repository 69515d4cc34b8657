/** The settings tools: tmux format variables, options, the environment and hooks. */
import {
  decodeRef,
  type Engine,
  invalidArgument,
  isRef,
  MAX_VARIABLES,
  onPane,
  type OptionScope,
  PANE_ID,
  paneIdFrom,
  readVariables,
  resolvePaneId,
  resolveSession,
  resolveWindow,
  showEnvironment,
  showHooks,
  showOption,
  validateOptionName,
  validateVariableNames,
  WINDOW_ID,
} from '../../../core/index.js';
import { array, enumOf, integer, nullable, object, record, string } from '../../../mcp/tools/schema.js';
import { libtmuxTool } from '../declare.js';

export const getTmuxVariablesTool = libtmuxTool({
  name: 'get_tmux_variables',
  targets: ['paneId'],
  title: 'Get tmux variables',
  description:
    'Read named tmux format variables, such as version, pid, socket_path, session_name, window_index, ' +
    'pane_current_command, pane_pid, pane_tty, pane_in_mode, cursor_x, history_size (see FORMATS in man tmux). Each ' +
    'name is read on its own as #{name}; arbitrary format strings are not accepted. Give `paneId` to read pane, ' +
    'window and session variables for that pane; without it they describe whatever tmux considers current, so ' +
    'only server-wide variables are meaningful. A value is null when tmux has no such variable there, "" when it ' +
    'is defined and empty. Up to 32 names per call.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['configured-command', 'tmux-metadata'],
  inputLiteralization: { names: 'validated-variable-name' },
  input: object(
    {
      names: array(string({ pattern: '^[A-Za-z][A-Za-z0-9_]*$', description: 'A tmux variable name, e.g. pane_current_command.' }), {
        maxItems: MAX_VARIABLES,
        description: 'Variable names to read: a letter, then letters, digits or "_" (1 to 32 names).',
      }),
      paneId: string({ description: 'Pane id (%3) or pane ref to read the variables for. Optional.' }),
    },
    ['names'],
  ),
  output: object(
    {
      values: record(nullable('string'), { description: 'Each requested name -> its value, or null when tmux does not define it.' }),
    },
    ['values'],
  ),
  async handler(args, { ctx }) {
    validateVariableNames(args.names);
    const paneId = args.paneId === undefined ? undefined : await resolvePaneId(ctx.engine, args.paneId);
    return { structured: { values: await readVariables(ctx.engine, args.names, paneId) } };
  },
});

const SCOPES = ['server', 'global_session', 'global_window', 'session', 'window', 'pane'] as const;
type Scope = (typeof SCOPES)[number];

export const showOptionTool = libtmuxTool({
  name: 'show_option',
  targets: ['target'],
  title: 'Show option',
  description:
    'Read one tmux option, e.g. history-limit, mouse, default-shell, status-style, remain-on-exit, or a user ' +
    'option like @my_flag. `scope` picks the table: server (-s), global_session (-g), global_window (-gw), or the ' +
    'value in effect for one session, window or pane (inherited from the global value when not set locally). ' +
    'Default: with no `target`, global_session, where tmux also finds server and window options by their name; with ' +
    'a `target`, the scope its kind implies (pane id/ref -> pane, window id/ref -> window, otherwise session). An ' +
    'array option (update-environment, terminal-features) gives one row per element, named like name[2]; ask for ' +
    'one element with name[2]. Values are returned exactly as tmux stores them. An unknown option is an error.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['configured-command', 'tmux-metadata'],
  input: object(
    {
      name: string({ description: 'Option name: letters, digits, "-" and "_", a leading "@" for user options, optionally "[index]".' }),
      scope: enumOf(SCOPES, { description: 'Which option table to read; see the tool description for the default.' }),
      target: string({
        description:
          'For scope session: session id ($0), name or ref; window: window id (@1) or ref; pane: pane id (%3) or ref. Not used by the global scopes.',
      }),
    },
    ['name'],
  ),
  output: object(
    {
      options: array(
        object(
          {
            name: string({ description: 'Option name as tmux reports it (name[index] for an array element).' }),
            value: string({ description: 'The value, exactly as stored (formats like #{...} are not expanded).' }),
          },
          ['name', 'value'],
        ),
        { description: 'One row, or one per element of an array option.' },
      ),
    },
    ['options'],
  ),
  async handler(args, { ctx }) {
    validateOptionName(args.name);
    const scope = await resolveScope(ctx.engine, args.scope ?? inferScope(args.target), args.target);
    // show-options itself refuses a pane that does not exist: no separate lookup.
    const read = () => showOption(ctx.engine, scope, args.name);
    return { structured: { options: await (scope.kind === 'pane' ? onPane(ctx.engine, scope.paneId, read) : read()) } };
  },
});

function inferScope(target: string | undefined): Scope {
  if (target === undefined) return 'global_session';
  if (PANE_ID.test(target)) return 'pane';
  if (WINDOW_ID.test(target)) return 'window';
  if (isRef(target)) {
    const kind = decodeRef(target)?.kind;
    if (kind === 'pane') return 'pane';
    if (kind === 'window' || kind === 'link') return 'window';
  }
  return 'session';
}

async function resolveScope(engine: Engine, scope: Scope, target: string | undefined): Promise<OptionScope> {
  switch (scope) {
    case 'server':
    case 'global_session':
    case 'global_window':
      if (target !== undefined)
        throw invalidArgument(`scope ${scope} takes no target; use scope session, window or pane to read one object's value`);
      return { kind: scope };
    case 'session':
    case 'window':
    case 'pane':
      if (target === undefined) throw invalidArgument(`scope ${scope} needs a target (the ${scope} to read)`);
      if (scope === 'session') return { kind: 'session', sessionId: (await resolveSession(engine, target, 'target')).id };
      if (scope === 'window') return { kind: 'window', windowId: (await resolveWindow(engine, target, 'target')).id };
      return { kind: 'pane', paneId: await paneIdFrom(engine, target, 'target') };
  }
}

export const showEnvironmentTool = libtmuxTool({
  name: 'show_environment',
  targets: ['session'],
  title: 'Show environment',
  description:
    "Read tmux's environment table: the global one (what new panes start with) or, given `session`, that session's " +
    'own entries, which override the global ones for panes created in it. A null value means the variable is ' +
    "marked to be removed from new panes' environment. This is not the environment of processes already running " +
    'in a pane (run `env` there for that). Values may hold secrets; read only what you need.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['process-environment'],
  input: object({
    session: string({ description: 'Session id ($0), exact session name, or session ref. Optional: default is the global table.' }),
  }),
  output: object(
    {
      environment: record(nullable('string'), { description: 'Variable name -> value, or null when marked for removal; sorted by name.' }),
    },
    ['environment'],
  ),
  async handler(args, { ctx }) {
    const sessionId = args.session === undefined ? undefined : (await resolveSession(ctx.engine, args.session)).id;
    return { structured: { environment: await showEnvironment(ctx.engine, sessionId) } };
  },
});

export const showHooksTool = libtmuxTool({
  name: 'show_hooks',
  targets: ['session'],
  title: 'Show hooks',
  description:
    'List the tmux hooks that are set: commands tmux runs on events such as after-new-window, pane-died or ' +
    'session-created. Without `session`, the global hooks (session and window/pane events); with it, the hooks ' +
    'set on that session only. Each row is one command of a hook (a hook can hold several, by index). Hooks with ' +
    'nothing set are left out, so an empty list means none are set.',
  toolset: 'inspect',
  tmuxEffects: ['observe'],
  outputClasses: ['configured-command'],
  input: object({
    session: string({ description: 'Session id ($0), exact session name, or session ref. Optional: default is the global hooks.' }),
  }),
  output: object(
    {
      hooks: array(
        object(
          {
            name: string({ description: 'Hook name, e.g. after-new-window.' }),
            index: integer({ description: 'Position of this command in the hook (0 first).' }),
            command: string({ description: 'The tmux command run, as tmux prints it.' }),
          },
          ['command', 'index', 'name'],
        ),
        { description: 'Set hooks, in tmux order.' },
      ),
    },
    ['hooks'],
  ),
  async handler(args, { ctx }) {
    const sessionId = args.session === undefined ? undefined : (await resolveSession(ctx.engine, args.session)).id;
    return { structured: { hooks: await showHooks(ctx.engine, sessionId) } };
  },
});
