/** The manage tools: asking tmux for a pane size. */
import { onPane, requestPaneSize } from '../../../core/index.js';
import { integer } from '../../../mcp/tools/schema.js';
import { planOn } from '../checks.js';
import { juliaTool, RESIZE } from '../declare.js';
import { mutationDone, mutationOutput, paneInput } from '../schemas.js';

export const resizePane = juliaTool({
  name: 'resize_pane',
  targets: ['target.paneId'],
  description:
    'Ask tmux to make a pane `width` columns wide and/or `height` rows tall (1 to 10000 each; give at least one). ' +
    'tmux fits the request to the window: a pane alone in its window keeps the window size. Read the size that ' +
    'resulted from list_panes.',
  mutating: true,
  annotations: RESIZE,
  input: (settings) => ({
    ...paneInput(
      settings,
      {
        height: integer({ minimum: 1, maximum: 10000, description: 'Rows wanted, 1 to 10000.' }),
        width: integer({ minimum: 1, maximum: 10000, description: 'Columns wanted, 1 to 10000.' }),
      },
      [],
    ),
    anyOf: [{ required: ['width'] }, { required: ['height'] }],
  }),
  output: mutationOutput,
  plan: (args, app) => planOn(args, app, () => ({ width: args.width, height: args.height })),
  async run(plan, { app }) {
    const engine = await app.checkTarget(plan.target);
    await onPane(engine, plan.target.paneId, () => requestPaneSize(engine, plan.target.paneId, plan));
    return mutationDone(plan.target);
  },
});
