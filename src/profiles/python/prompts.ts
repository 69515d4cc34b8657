/** The four prompts: recipes that render step-by-step instructions using this profile's tools. */
import type { PromptDeclaration } from '../../mcp/surface/prompts.js';

const META = { fastmcp: { tags: [] } };
const quote = (value: string) => JSON.stringify(value);

export const PYTHON_PROMPTS: readonly PromptDeclaration[] = [
  {
    name: 'build_dev_workspace',
    description: 'Set up a three-pane development workspace (editor, shell, logs) in a new tmux session.',
    arguments: [
      { name: 'session_name', description: 'Name of the session to create.', required: true },
      { name: 'log_command', description: 'Command for the log pane (default "watch -n 1 date").', required: false },
    ],
    _meta: META,
    render: ({ session_name, log_command }) => {
      const log = log_command || 'watch -n 1 date';
      return [
        `Build a development workspace in a new tmux session named ${quote(session_name!)}:`,
        `1. create_session(session_name=${quote(session_name!)}) and note active_pane_id: this is the editor pane.`,
        '2. split_window(pane_id=<editor pane>, direction="below") for a shell pane; note its pane_id.',
        '3. split_window(pane_id=<shell pane>, direction="right") for a log pane; note its pane_id.',
        `4. send_keys(pane_id=<log pane>, keys=${quote(log)}) to start the log command.`,
        '5. Optionally confirm it started: wait_for_text(pane_id=<log pane>, patterns=null, timeout=5).',
        'Report the three pane ids and what runs in each. Do not type into the pane marked is_caller=true in list_panes.',
      ].join('\n');
    },
  },
  {
    name: 'diagnose_failing_pane',
    description: 'Work out why the program in a pane is failing, by reading it, without running anything.',
    arguments: [{ name: 'pane_id', description: 'The pane to look at, like %3.', required: true }],
    _meta: META,
    render: ({ pane_id }) =>
      [
        `Diagnose what is failing in tmux pane ${pane_id}, reading only (do not type into it):`,
        `1. snapshot_pane(pane_id=${quote(pane_id!)}): what runs there (pane_current_command), where, whether it is dead, in copy mode or on the alternate screen, and its visible text.`,
        `2. If content_truncated is true or the error started earlier, capture_pane(pane_id=${quote(pane_id!)}, start=-500, max_lines=null) for the scrollback.`,
        `3. To watch it further, capture_since(pane_id=${quote(pane_id!)}) and pass the returned cursor back on each later call, reading only new lines.`,
        '4. State your hypothesis: the first error line, what it means, and the change or command you would suggest. Do not run it without being asked.',
      ].join('\n'),
  },
  {
    name: 'interrupt_gracefully',
    description: 'Stop the program running in a pane with Ctrl-C and check that the shell prompt is back.',
    arguments: [{ name: 'pane_id', description: 'The pane whose program should stop, like %3.', required: true }],
    _meta: META,
    render: ({ pane_id }) =>
      [
        `Interrupt the program in tmux pane ${pane_id} and confirm it stopped:`,
        `1. get_pane_info(pane_id=${quote(pane_id!)}): note pane_current_command (what is running). If it is already a shell, stop: nothing to interrupt.`,
        `2. send_keys(pane_id=${quote(pane_id!)}, keys="C-c", enter=false): Ctrl-C once, without Enter.`,
        `3. wait_for_text(pane_id=${quote(pane_id!)}, patterns=["$ ", "# ", "% ", "> "], timeout=5) for a prompt. Do not put "^C" in stop: the echo appears whether or not the program stopped.`,
        `4. get_pane_info(pane_id=${quote(pane_id!)}) again: pane_current_command should now be the shell.`,
        'If it is still running, report that and ask before anything stronger; never escalate to SIGQUIT or kill_pane on your own.',
      ].join('\n'),
  },
  {
    name: 'run_and_wait',
    description: 'Run a shell command in a pane and report its exit status and output, in one tool call.',
    arguments: [
      { name: 'command', description: 'The shell command to run.', required: true },
      { name: 'pane_id', description: 'The pane to run it in, like %3.', required: true },
      { name: 'timeout', description: 'Seconds to wait for it (default 60; the server ceiling may lower it).', required: false },
    ],
    _meta: META,
    render: ({ command, pane_id, timeout }) => {
      const seconds = timeout && Number.isFinite(Number(timeout)) ? Number(timeout) : 60;
      const multiline = command!.includes('\n');
      return [
        `Run this command in tmux pane ${pane_id} and report the result:`,
        `run_command(pane_id=${quote(pane_id!)}, command=${quote(command!)}, timeout=${seconds}, max_lines=100${multiline ? ', suppress_history=false' : ''})`,
        multiline ? 'The command has several lines; it runs as one unit in a subshell.' : '',
        'Then report exit_status and the relevant output lines. If timed_out is true the command is still running: follow it with ' +
          `wait_for_text(pane_id=${quote(pane_id!)}, patterns=[...], stop=["error", "Error"]) or capture_since rather than running it again. ` +
          'The server holds every wait to its ceiling (LIBTMUX_MCP_WAIT_MAX_SECONDS), so effective_timeout may be lower than asked.',
      ]
        .filter(Boolean)
        .join('\n');
    },
  },
];
