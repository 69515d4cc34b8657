/**
 * A run is a subshell: what the server types around a command so that nothing it does (`exit`,
 * `set -e`, `cd`, traps, options) reaches the pane's shell, as the published servers do. POSIX
 * shells get parentheses; fish, which has none, gets a child fish (`fish -c`), the only thing that
 * keeps its `exit`, `set -g`, `cd` and event handlers from the interactive shell.
 */

/** The command wrapped so it runs in a subshell of `shell`. */
export function inSubshell(shell: string, command: string): string {
  if (shell === 'fish') return `fish -c '${command.replace(/[\\']/g, '\\$&')}'`;
  // On one line unless a `#` could start a comment (it would swallow the closing parenthesis) or it has several.
  return command.includes('\n') || /(^|[\s;&|()<>])#/.test(command) ? `( ${command}\n)` : `( ${command} )`;
}
