import { clipUtf8 } from '../../../core/capture.js';
import { generationOf } from '../../../core/generation.js';
import type { WindowRecord } from '../../../core/records.js';
import { array, boolean, integer, nullable, object, string } from '../../../mcp/schema.js';
import { juliaTool, READ } from '../declare.js';
import { outcomes, targetOut } from '../schemas.js';

const MAX_CONTEXTS = 8;

const context = object(
  { sessionId: string(), sessionName: string(), windowId: string(), windowIndex: integer(), windowName: string() },
  ['sessionId', 'sessionName', 'windowId', 'windowName', 'windowIndex'],
);

const row = object(
  {
    active: boolean(),
    caller: boolean(),
    command: nullable('string'),
    contexts: array(context, { maxItems: MAX_CONTEXTS }),
    contextsTruncated: boolean(),
    dead: boolean(),
    fieldsTruncated: boolean(),
    height: integer(),
    target: targetOut,
    title: string(),
    width: integer(),
  },
  ['target', 'active', 'dead', 'command', 'title', 'width', 'height', 'caller', 'contexts', 'contextsTruncated', 'fieldsTruncated'],
);

const success = object(
  {
    coverage: string(),
    generationGuarantee: string(),
    nextOffset: nullable('integer'),
    panes: array(row, { maxItems: 128 }),
    terminalContent: string(),
    total: integer(),
    truncated: boolean(),
  },
  ['terminalContent', 'nextOffset', 'generationGuarantee', 'panes', 'total', 'truncated', 'coverage'],
);

interface Args {
  limit?: number;
  offset?: number;
}

export const listPanes = juliaTool({
  name: 'list_panes',
  description:
    'List the panes of the tmux server, each with the target ({paneId, generation}) every other tool takes, its ' +
    'size, whether it is active or dead, its running command and title, and the sessions and windows it appears in. ' +
    'Start here: targets are only valid for the tmux server incarnation that listed them. With --allow-pane only ' +
    'the allowed panes (and those of sessions this server created) are listed. Pages with offset/limit; ' +
    '`nextOffset` is the offset of the next page, null on the last.',
  mutating: false,
  annotations: READ,
  input: () =>
    object({
      limit: integer({ default: 32, minimum: 1, maximum: 128, description: 'Most rows in this page, 1 to 128. Default 32.' }),
      offset: integer({ default: 0, minimum: 0, maximum: 1_000_000, description: 'Rows to skip, for the next page pass the last nextOffset. Default 0.' }),
    }),
  output: outcomes(success),
  plan: (args: Args) => ({ limit: args.limit ?? 32, offset: args.offset ?? 0 }),
  async run(plan, { app }) {
    const [panes, windows] = await Promise.all([app.engine.listPanes(), app.engine.listWindows()]);
    const links = new Map<string, WindowRecord[]>();
    for (const link of windows) links.set(link.id, [...(links.get(link.id) ?? []), link]);
    const rows = panes
      .map((pane) => ({ pane, target: { paneId: pane.id, generation: generationOf(pane.incarnation) } }))
      .filter(({ target }) => app.isAllowed(target));
    const page = rows.slice(plan.offset, plan.offset + plan.limit).map(({ pane, target }) => {
      const linked = links.get(pane.windowId) ?? [];
      const title = clipUtf8(pane.title, 256);
      const command = clipUtf8(pane.currentCommand, 256);
      let clipped = title.clipped || command.clipped;
      const contexts = linked.slice(0, MAX_CONTEXTS).map((link) => {
        const sessionName = clipUtf8(link.sessionName, 128);
        const windowName = clipUtf8(link.name, 128);
        clipped ||= sessionName.clipped || windowName.clipped;
        return { sessionName: sessionName.text, windowName: windowName.text, windowIndex: link.index, sessionId: link.sessionId, windowId: link.id };
      });
      // Keys in the order the contract's server writes them (payloadKeyOrder).
      return {
        contextsTruncated: linked.length > MAX_CONTEXTS,
        contexts,
        title: title.text,
        fieldsTruncated: clipped,
        target,
        width: pane.width,
        caller: app.isCaller(target),
        height: pane.height,
        active: pane.isActive,
        dead: pane.isDead,
        command: command.text === '' ? null : command.text,
      };
    });
    const next = plan.offset + page.length;
    const more = next < rows.length;
    return {
      terminalContent: 'data',
      nextOffset: more ? next : null,
      generationGuarantee: 'best_effort',
      panes: page,
      total: rows.length,
      truncated: more,
      coverage: 'complete_observed_graph',
    };
  },
});
