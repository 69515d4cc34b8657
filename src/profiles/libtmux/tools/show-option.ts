import { array, enumOf, object, string } from '../../../mcp/tools/schema.js';
import { invalidArgument } from '../../../core/failure.js';
import { isRef, decodeRef } from '../../../core/targets/refs.js';
import { showOption, validateOptionName, type OptionScope } from '../../../core/settings/options.js';
import type { Engine } from '../../../core/engine.js';
import { libtmuxTool } from '../declare.js';
import { PANE_ID, WINDOW_ID } from '../../../core/ids.js';

const SCOPES = ['server', 'global_session', 'global_window', 'session', 'window', 'pane'] as const;
type Scope = (typeof SCOPES)[number];

export const showOptionTool = libtmuxTool({
  name: 'show_option',
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
      target: string({ description: 'For scope session: session id ($0), name or ref; window: window id (@1) or ref; pane: pane id (%3) or ref. Not used by the global scopes.' }),
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
  async handler(args: { name: string; scope?: Scope; target?: string }, { ctx }) {
    validateOptionName(args.name);
    const scope = await resolveScope(ctx.engine, args.scope ?? inferScope(args.target), args.target);
    // show-options itself refuses a pane that does not exist: no separate lookup.
    const read = () => showOption(ctx.engine, scope, args.name);
    return { structured: { options: await (scope.kind === 'pane' ? ctx.engine.onPane(scope.paneId, read) : read()) } };
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
      if (target !== undefined) throw invalidArgument(`scope ${scope} takes no target; use scope session, window or pane to read one object's value`);
      return { kind: scope };
    case 'session':
    case 'window':
    case 'pane':
      if (target === undefined) throw invalidArgument(`scope ${scope} needs a target (the ${scope} to read)`);
      if (scope === 'session') return { kind: 'session', sessionId: (await engine.resolveSession(target, 'target')).id };
      if (scope === 'window') return { kind: 'window', windowId: (await engine.resolveWindow(target, 'target')).id };
      return { kind: 'pane', paneId: await engine.paneIdFrom(target, 'target') };
  }
}
