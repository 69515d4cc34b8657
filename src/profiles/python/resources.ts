/**
 * The resource templates: the tmux hierarchy as JSON (sessions, a session with its windows, a
 * window with its panes, a pane) and a pane's visible text, on the configured server or the one
 * `?socket_name=` names. A missing object reads as "resource not found".
 */
import {
  captureLines,
  type Engine,
  EngineRegistry,
  listPaneDetails,
  listSessions,
  listWindows,
  onPane,
  PANE_ID,
  paneDetail,
} from '../../core/index.js';
import { completersFor } from './completions.js';
import type { Completer } from '../../mcp/surface/completions.js';
import type { ResourceTemplateDeclaration } from '../../mcp/surface/resources.js';
import { paneWire, paneWires, sessionWire, windowWire } from './records.js';
import { checkId, targetedSession, targetedWindow } from './targets.js';

const META = { fastmcp: { tags: [] } };
const json = (value: unknown) => JSON.stringify(value, null, 2);
/** How a pane id goes into a URI: as written or percent-encoded (both arrive as the same id). */
const PANE_IN_URI =
  'The pane id goes in as written (tmux://panes/%12) or percent-encoded (tmux://panes/%2512); an encoded form is read as such when it decodes to a pane id, so pane %251 is written %25251.';

function template(
  registry: EngineRegistry,
  completers: Readonly<Record<string, Completer>>,
  spec: Omit<ResourceTemplateDeclaration, 'read' | '_meta' | 'complete'> & {
    read(engine: Engine, variables: Readonly<Record<string, string>>): Promise<string>;
  },
): ResourceTemplateDeclaration {
  const variables = [...spec.uriTemplate.matchAll(/[{,?]([a-z_]+)/g)].map((match) => match[1]!);
  return {
    ...spec,
    _meta: META,
    complete: completersFor(completers, variables),
    read: (variables) => registry.use(EngineRegistry.named(variables.socket_name), (engine) => spec.read(engine, variables)),
  };
}

export function pythonResourceTemplates(
  registry: EngineRegistry,
  completers: Readonly<Record<string, Completer>>,
): ResourceTemplateDeclaration[] {
  return [
    template(registry, completers, {
      uriTemplate: 'tmux://sessions{?socket_name}',
      name: 'get_sessions',
      title: 'All Sessions',
      description: 'Every session of the tmux server (or of the one ?socket_name= names), as a JSON array of session records.',
      mimeType: 'application/json',
      async read(engine) {
        return json((await listSessions(engine)).map((s) => sessionWire(s)));
      },
    }),
    template(registry, completers, {
      uriTemplate: 'tmux://sessions/{session_name}{?socket_name}',
      name: 'get_session',
      title: 'Session Detail',
      description: 'One session by name, as JSON: its record plus `windows`, the records of its windows.',
      mimeType: 'application/json',
      async read(engine, { session_name }) {
        const session = await targetedSession(engine, { session_name: session_name! });
        const windows = await listWindows(engine, session.id);
        return json({ ...sessionWire(session), windows: windows.map(windowWire) });
      },
    }),
    template(registry, completers, {
      uriTemplate: 'tmux://sessions/{session_name}/windows{?socket_name}',
      name: 'get_session_windows',
      title: 'Session Windows',
      description: 'The windows of one session (by name), as a JSON array of window records.',
      mimeType: 'application/json',
      async read(engine, { session_name }) {
        const session = await targetedSession(engine, { session_name: session_name! });
        return json((await listWindows(engine, session.id)).map(windowWire));
      },
    }),
    template(registry, completers, {
      uriTemplate: 'tmux://sessions/{session_name}/windows/{window_index}{?socket_name}',
      name: 'get_window',
      title: 'Window Detail',
      description: 'One window, by session name and window index, as JSON: its record plus `panes`, the records of its panes.',
      mimeType: 'application/json',
      async read(engine, { session_name, window_index }) {
        const window = await targetedWindow(engine, { session_name: session_name!, window_index: window_index! });
        const panes = await listPaneDetails(engine, { windowId: window.id });
        return json({ ...windowWire(window), panes: await paneWires(engine, panes) });
      },
    }),
    template(registry, completers, {
      uriTemplate: 'tmux://panes/{pane_id}{?socket_name}',
      name: 'get_pane',
      title: 'Pane Detail',
      description: `One pane by id, as a JSON pane record. ${PANE_IN_URI}`,
      shapes: { pane_id: PANE_ID },
      mimeType: 'application/json',
      async read(engine, { pane_id }) {
        return json(await paneWire(engine, await paneDetail(engine, checkId(pane_id!, PANE_ID, 'pane_id', '%3'))));
      },
    }),
    template(registry, completers, {
      uriTemplate: 'tmux://panes/{pane_id}/content{?socket_name}',
      name: 'get_pane_content',
      title: 'Pane Content',
      description: `The text a pane shows now (its visible screen, trailing blank rows removed), as plain text. For scrollback use the capture_pane tool. ${PANE_IN_URI}`,
      shapes: { pane_id: PANE_ID },
      mimeType: 'text/plain',
      async read(engine, { pane_id }) {
        const paneId = checkId(pane_id!, PANE_ID, 'pane_id', '%3');
        return (await onPane(engine, paneId, () => captureLines(engine, paneId))).join('\n');
      },
    }),
  ];
}
