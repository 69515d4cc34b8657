import { boolean, integer, object, string } from '../../../mcp/tools/schema.js';
import { pasteText as paste } from '../../../core/act/input.js';
import { libtmuxTool } from '../declare.js';

export const pasteText = libtmuxTool({
  name: 'paste_text',
  title: 'Paste text',
  description:
    'Paste a block of text into a pane in one piece, as a terminal paste: a script into an editor, a multi-line ' +
    'snippet into a REPL, a heredoc into a shell. When the program asked for bracketed paste (most shells and ' +
    'editors do), it receives the block as a paste and does not run lines as they arrive; otherwise newlines ' +
    'arrive as Enter. The text goes exactly as given (";", "$HOME", quotes, tabs, emoji) through a private tmux ' +
    'buffer that is deleted afterwards, so your tmux paste buffers are never touched. Set enter true to press ' +
    'Enter after the paste (e.g. to run a pasted command). Refuses a dead pane, a pane in copy mode or another ' +
    'tmux mode, and the pane this server runs in unless force. Unlike send_keys it is not copied to ' +
    'synchronized panes. For keys such as C-c use send_keys with literal false.',
  toolset: 'execute',
  processReach: 'pane-input',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  input: object(
    {
      paneId: string({ description: 'Pane to paste into: id (%3) or pane ref from list_panes.' }),
      text: string({ description: 'The text to paste, exactly as it should arrive (at most about 1 MB). Empty pastes nothing.' }),
      enter: boolean({ description: 'Press Enter after the paste. Default false.' }),
      force: boolean({ description: 'Allow pasting into the pane this MCP server itself runs in. Default false (refused).' }),
    },
    ['paneId', 'text'],
  ),
  output: object(
    {
      paneRef: string({ description: 'Opaque reference to the pane pasted into, accepted wherever a pane id is.' }),
      pane: string({ description: 'The pane id pasted into, like %3.' }),
      characters: integer({ description: 'How many characters (Unicode code points) were pasted.' }),
    },
    ['characters', 'pane', 'paneRef'],
  ),
  async handler(args: { paneId: string; text: string; enter?: boolean; force?: boolean }, { ctx }) {
    const { engine } = ctx;
    const { pane, characters } = await paste(engine, { pane: args.paneId, text: args.text, enter: args.enter, force: args.force });
    return { structured: { paneRef: engine.ref('pane', pane.id, pane.incarnation), pane: pane.id, characters } };
  },
});
