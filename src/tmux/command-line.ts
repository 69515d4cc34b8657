/**
 * Turns an argument vector into one line of tmux's command language, for the control-mode client.
 *
 * Control mode parses what we write exactly like a config file line, so every argument that is not
 * a plain word is double-quoted with tmux's escapes: `$` would expand a variable, `~` a home
 * directory, `#` start a comment, a trailing `;` split commands, `{` open a block, and a newline end
 * the line. Inside double quotes only `\`, `"` and `$` are special; control bytes go as octal.
 */

const PLAIN = /^[A-Za-z0-9_@%:./=+,^-]+$/;

export function quoteArgument(arg: string): string {
  if (arg.includes('\0')) throw new TypeError('tmux arguments cannot contain NUL bytes');
  if (arg.length > 0 && PLAIN.test(arg)) return arg;
  let out = '"';
  for (const ch of arg) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\' || ch === '"' || ch === '$') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += '\\' + code.toString(8).padStart(3, '0');
    else out += ch;
  }
  return out + '"';
}

export function commandLine(argv: readonly string[]): string {
  return argv.map(quoteArgument).join(' ');
}
