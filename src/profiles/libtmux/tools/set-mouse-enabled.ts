import { boolean, object } from '../../../mcp/tools/schema.js';
import { setMouse } from '../../../core/settings/settings.js';
import { libtmuxTool } from '../declare.js';

export const setMouseEnabled = libtmuxTool({
  name: 'set_mouse_enabled',
  title: 'Set mouse enabled',
  description:
    'Turn tmux mouse support on or off for every session (the global mouse option): when on, a person at an ' +
    'attached terminal can click to select panes and windows, drag borders to resize, and scroll into copy mode. ' +
    'It changes nothing for tools that address panes by id. A session that sets its own mouse option keeps that.',
  toolset: 'manage',
  tmuxEffects: ['change'],
  outputClasses: ['tmux-metadata'],
  input: object({ enabled: boolean({ description: 'true turns mouse support on, false turns it off.' }) }, ['enabled']),
  output: object({ enabled: boolean({ description: 'Whether the global mouse option is now on.' }) }, ['enabled']),
  async handler(args: { enabled: boolean }, { ctx }) {
    return { structured: { enabled: await setMouse(ctx.engine, args.enabled) } };
  },
});
