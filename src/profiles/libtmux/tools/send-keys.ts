import { array, boolean, object, string } from '../../../mcp/tools/schema.js';
import { sendKeys as send } from '../../../core/act/input.js';
import { invalidArgument } from '../../../core/failure.js';
import { libtmuxTool } from '../declare.js';

// Keeps the echoed keys, written twice, well inside the 1 MB response limit.
const MAX_ECHO_BYTES = 400_000;

/** The arguments of one send, shared with send_keys_batch's operations. */
export const SEND_KEYS_FIELDS = {
  paneId: string({ description: 'Pane to type into: id (%3) or pane ref from list_panes.' }),
  keys: array(string(), {
    description:
      'What to send, in order. A string that is exactly a tmux key name is pressed as that key: Enter, Escape, Tab, ' +
      'BSpace, Space, Up/Down/Left/Right, Home, End, PageUp, PageDown, F1-F12, or a character with C- (Ctrl), M- ' +
      '(Alt) or S- (Shift), e.g. C-c, C-d, M-x. Any other string is typed exactly as written (";", "$HOME", quotes ' +
      'and a leading "-" included); a newline inside a string presses Enter there. With literal true every string ' +
      'is typed as text, key names too.',
  }),
  literal: boolean({
    description: 'true: type every string as text, even one that reads like a key name ("Enter" types the word). Default false: key names are pressed, other strings typed.',
  }),
  enter: boolean({ description: 'Press Enter after the keys, e.g. to run a typed command. Default false.' }),
  force: boolean({ description: 'Allow typing into the pane this MCP server itself runs in. Default false (refused).' }),
};

export interface SendKeysArgs {
  paneId: string;
  keys: string[];
  literal?: boolean;
  enter?: boolean;
  force?: boolean;
}

export const sendKeys = libtmuxTool({
  name: 'send_keys',
  title: 'Send keys',
  description:
    'Type text or press keys in a pane, as if at its keyboard: answer a prompt, drive a TUI, interrupt a program ' +
    '(keys ["C-c"]), run a line (keys ["make test", "Enter"] or enter true). Strings that are tmux key names are ' +
    'pressed; everything else is typed exactly: ";", "$HOME", quotes and a leading "-" arrive as written, and ' +
    'newlines become Enter presses between lines. Pass literal true to type even key names as text. Nothing is ' +
    'typed into a dead pane, a pane in copy mode (or another tmux mode), or the pane this server runs in (unless ' +
    'force). When the window has synchronize-panes on, tmux copies the input to its other panes; resolvedPaneIds ' +
    'lists every pane that received it. Returns at once, without waiting for the ' +
    'program. To get the answer, call wait_for_text next (no cursor needed: everything the pane prints after this ' +
    'input counts as new, even if it comes before the wait starts); to run a shell command and get its output and ' +
    'exit status use run_shell_command; to insert a multi-line block without running it line by line use paste_text.',
  toolset: 'execute',
  processReach: 'pane-input',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  input: object(SEND_KEYS_FIELDS, ['keys', 'paneId']),
  output: object(
    {
      paneRef: string({ description: 'Opaque reference to the pane typed into, accepted wherever a pane id is.' }),
      pane: string({ description: 'The pane id typed into, like %3.' }),
      keys: array(string(), { description: 'The strings sent, in order, with "Enter" appended when enter pressed it.' }),
      resolvedPaneIds: array(string(), {
        description: 'Every pane that received the input: the pane itself first, then any panes synchronize-panes copied it to.',
      }),
    },
    ['keys', 'pane', 'paneRef', 'resolvedPaneIds'],
  ),
  async handler(args: SendKeysArgs, { ctx }) {
    const { engine } = ctx;
    // The result echoes the keys (twice: structured and as text); refuse before typing what could not be answered.
    const echo = Buffer.byteLength(JSON.stringify(args.keys), 'utf8');
    if (echo > MAX_ECHO_BYTES) {
      throw invalidArgument(`keys are too large to send and echo back (${echo} bytes as JSON, at most ${MAX_ECHO_BYTES})`, 'Use paste_text for large text.');
    }
    const sent = await send(engine, {
      pane: args.paneId,
      keys: args.keys,
      literal: args.literal ?? false,
      enter: args.enter ?? false,
      force: args.force,
    });
    const { pane, receivers } = sent.target;
    return {
      structured: { paneRef: engine.ref('pane', pane.id, pane.incarnation), pane: pane.id, keys: [...sent.keys], resolvedPaneIds: [...receivers] },
    };
  },
});
