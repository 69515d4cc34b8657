/**
 * Turns an argument vector into one line of tmux's command language, for the control-mode client.
 *
 * Control mode parses what we write exactly like a config file line, so every argument that is not
 * a plain word is double-quoted with tmux's escapes: `$` would expand a variable, `~` a home
 * directory (even inside double quotes, so a leading one is escaped), `#` start a comment, a trailing `;` split commands, `{` open a block, and a newline end
 * the line. Inside double quotes only `\`, `"` and `$` are special; control bytes go as octal.
 */

const PLAIN = /^[A-Za-z0-9_@%:./=+,^-]+$/;
// Everything that cannot stand as itself inside double quotes.
const SPECIAL = /[\\"$\u0000-\u001f\u007f]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', $: '\\$', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escapeChar = (ch: string): string => ESCAPES[ch] ?? '\\' + ch.charCodeAt(0).toString(8).padStart(3, '0');

// Row formats are long constants sent with every listing; quoting them once saves work on each call.
const FORMAT_CACHE = new Map<string, string>();
const FORMAT_CACHE_MAX = 256;

function quoteArgument(arg: string): string {
  if (arg.length > 0 && PLAIN.test(arg)) return arg;
  const isFormat = arg.length > 64 && arg.includes('#{');
  if (isFormat) {
    const cached = FORMAT_CACHE.get(arg);
    if (cached !== undefined) return cached;
  }
  if (arg.includes('\0')) throw new TypeError('tmux arguments cannot contain NUL bytes');
  // tmux expands a leading `~` even inside double quotes; `\~` keeps it a tilde.
  const quoted = '"' + (arg.startsWith('~') ? '\\' : '') + arg.replace(SPECIAL, escapeChar) + '"';
  if (isFormat) {
    if (FORMAT_CACHE.size >= FORMAT_CACHE_MAX) FORMAT_CACHE.clear();
    FORMAT_CACHE.set(arg, quoted);
  }
  return quoted;
}

export function commandLine(argv: readonly string[]): string {
  let line = '';
  for (let i = 0; i < argv.length; i++) line += (i === 0 ? '' : ' ') + quoteArgument(argv[i]!);
  return line;
}
