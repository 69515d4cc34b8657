/** Watching panes by other means: pipe a pane's output to a file, and evaluate tmux formats. */
import { displayMessage } from '../../../core/read/display-message.js';
import { startPipe, stopPipe } from '../../../core/watch/pipe-pane.js';
import { pythonTool, textResult } from '../declare.js';
import { defaulted, field, optional, PANE_TARGET, params, SOCKET_NAME, TARGETING_NOTE, WRAPPED_TEXT } from '../schema.js';
import { checkTarget, resolvePaneId } from '../targets.js';


export const pipePaneTool = pythonTool({
  name: 'pipe_pane',
  title: 'Pipe Pane',
  description:
    'Copy everything a pane prints from now on into a file (raw terminal output, escape sequences included), e.g. to ' +
    'keep a full log of a long build; output_path null stops it. The path must be absolute; it reaches the shell tmux ' +
    'runs as one quoted word whatever it contains. append (default true) adds to the file; false empties it first. A pane ' +
    'has one pipe: starting one replaces the previous (including one the user set up). To read output, capture_pane or ' +
    `capture_since is usually enough. ${TARGETING_NOTE}`,
  toolset: 'execute',
  input: params({
    ...PANE_TARGET,
    output_path: optional('string', 'Absolute path of the file to write; created if missing. null (default): stop piping.'),
    append: defaulted('boolean', true, 'Append to the file (default true); false truncates it first.'),
    socket_name: SOCKET_NAME,
  }),
  output: WRAPPED_TEXT,
  async handler(args, { engine }) {
    checkTarget(args);
    const paneId = await resolvePaneId(engine, args);
    if (args.output_path == null) {
      await stopPipe(engine, paneId);
      return textResult(`Piping stopped for pane ${paneId}`);
    }
    await startPipe(engine, paneId, args.output_path, { append: args.append ?? true, field: 'output_path' });
    return textResult(`Piping pane ${paneId} to ${args.output_path}`);
  },
});

export const displayMessageTool = pythonTool({
  name: 'display_message',
  title: 'Evaluate tmux Format String',
  description:
    'Evaluate a tmux format string in a pane\'s context and return the text: the escape hatch for any tmux variable no ' +
    'other tool reports, e.g. "#{pane_pid} #{pane_tty}", "#{window_zoomed_flag}", "#{client_termname}", or conditionals ' +
    'like "#{?pane_dead,dead,alive}". Shell jobs #(...) are refused, so it never runs a command. ' + TARGETING_NOTE,
  toolset: 'inspect',
  input: params({ format_string: field('string', 'The tmux format, e.g. "#{session_name}:#{window_index}.#{pane_index}".'), ...PANE_TARGET, socket_name: SOCKET_NAME }, ['format_string']),
  output: WRAPPED_TEXT,
  async handler(args, { engine }) {
    checkTarget(args);
    const paneId = await resolvePaneId(engine, args);
    const shown = await displayMessage(engine, args.format_string, paneId);
    return textResult(shown.text);
  },
});
