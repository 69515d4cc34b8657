// `npm test` runs this first: the suite drives real programs (tmux, a loopback sshd, bash/zsh/fish,
// a Python REPL, asciinema, headless chromium), and a missing one would otherwise surface as a
// score of failing tests with no word of why. It stops at once with one message that names what is
// missing and the one command that installs it. Programs are looked up on PATH, as the tests run them.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What the suite runs, the Debian package that provides it, and what for. */
const NEEDS = [
  { command: 'tmux', pkg: 'tmux', why: 'every test', version: tmuxVersion },
  { command: 'bash', pkg: 'bash', why: "the panes' shell" },
  { command: 'python3', pkg: 'python3', why: "the REPL of the README's typical loop" },
  { command: 'sshd', pkg: 'openssh-server', why: 'the loopback sshd of the remote-host tests' },
  { command: 'ssh', pkg: 'openssh-client', why: 'the remote-host tests' },
  { command: 'ssh-keygen', pkg: 'openssh-client', why: "the loopback sshd's keys" },
  { command: 'fish', pkg: 'fish', why: 'run_shell_command in fish' },
  { command: 'zsh', pkg: 'zsh', why: 'run_shell_command in zsh' },
  { command: 'direnv', pkg: 'direnv', why: "run_shell_command behind direnv's prompt hook" },
  { file: '/usr/share/doc/fzf/examples/key-bindings.bash', pkg: 'fzf', why: "run_shell_command with fzf's key bindings" },
  { file: '/usr/share/powerline/bindings/bash/powerline.sh', pkg: 'powerline', why: 'run_shell_command behind a powerline prompt' },
  {
    file: '/usr/share/zsh-autosuggestions/zsh-autosuggestions.zsh',
    pkg: 'zsh-autosuggestions',
    why: 'run_shell_command in zsh with autosuggestions',
  },
  {
    file: '/usr/share/zsh-syntax-highlighting/zsh-syntax-highlighting.zsh',
    pkg: 'zsh-syntax-highlighting',
    why: 'run_shell_command in zsh with syntax highlighting',
  },
  { file: '/usr/share/powerlevel9k/powerlevel9k.zsh-theme', pkg: 'zsh-theme-powerlevel9k', why: 'run_shell_command behind powerlevel9k' },
  { command: 'asciinema', pkg: 'asciinema', why: 'replaying pane recordings' },
  { command: 'chromium', pkg: 'chromium', why: 'the live view, in headless chromium' },
  { command: 'script', pkg: 'bsdutils', why: "a terminal for tmux-mcp call's approval question" },
  { command: 'jq', pkg: 'jq', why: "the skill's examples, run as written" },
  { command: 'openssl', pkg: 'openssl', why: "the README's token file, made as written" },
];

/** The first executable `name` on PATH, or undefined. */
export function which(name, path = process.env.PATH ?? '') {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** tmux 3.3a or newer: undefined when it is, else what is wrong. */
function tmuxVersion(bin) {
  let said = '';
  try {
    said = execFileSync(bin, ['-V'], { encoding: 'utf8', timeout: 10_000 }).trim();
  } catch (error) {
    return `${bin} -V failed: ${error.message.split('\n')[0]}`;
  }
  const match = /^tmux (?:next-)?(\d+)\.(\d+)/.exec(said);
  if (!match) return `${bin} -V said "${said}", not a tmux version`;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 3 || (major === 3 && minor >= 3) ? undefined : `it is ${said}; the suite needs tmux 3.3a or newer`;
}

/** What `bin -V` says, or undefined when it does not run. */
function versionOf(bin, env) {
  try {
    return execFileSync(bin, ['-V'], { encoding: 'utf8', timeout: 10_000, env }).trim();
  } catch {
    return undefined;
  }
}

/**
 * A tmux of another version than the suite's, for the test of a host on one version beside this
 * machine's on another: TMUX_MCP_TEST_OTHER_TMUX, else the 3.5a that scripts/build-tmux.sh builds,
 * else Debian's /usr/bin/tmux, whichever first says another version than the suite's tmux.
 */
export function otherTmux(env = process.env) {
  const suite = versionOf(env.LIBTMUX_TMUX_BIN || which('tmux', env.PATH ?? '') || 'tmux', env);
  const cache = env.XDG_CACHE_HOME || join(env.HOME ?? '', '.cache');
  const candidates = env.TMUX_MCP_TEST_OTHER_TMUX
    ? [env.TMUX_MCP_TEST_OTHER_TMUX]
    : [join(cache, 'tmux-mcp-ts', 'tmux-3.5a', 'bin', 'tmux'), '/usr/bin/tmux'];
  return candidates.find((bin) => {
    const said = versionOf(bin, env);
    return said !== undefined && said !== suite;
  });
}

/** Every problem found, in one list: nothing is installed piecemeal. */
export function preflight(env = process.env) {
  const problems = [];
  const packages = new Set();
  const [major] = process.versions.node.split('.').map(Number);
  if (major < 20) problems.push(`Node.js ${process.versions.node} (the server and the suite need Node.js 20 or newer)`);
  const tmuxBin = env.LIBTMUX_TMUX_BIN || 'tmux';
  for (const need of NEEDS) {
    if (need.file) {
      if (!existsSync(need.file)) {
        problems.push(`${need.file} (${need.why})`);
        packages.add(need.pkg);
      }
      continue;
    }
    const name = need.command === 'tmux' ? tmuxBin : need.command;
    const found = name.includes('/') ? name : which(name, env.PATH ?? '');
    if (!found) {
      // Debian keeps sshd in /usr/sbin, which a user's PATH often lacks: say so rather than "install it".
      const sbin = need.command === 'sshd' && which('sshd', '/usr/sbin:/usr/local/sbin:/sbin');
      problems.push(
        sbin
          ? `sshd (${need.why}): it is at ${sbin}, but not on PATH; add its folder, e.g. PATH=$PATH:${sbin.replace(/\/sshd$/, '')} npm test`
          : `${name} (${need.why})`,
      );
      if (!sbin) packages.add(need.pkg);
      continue;
    }
    const wrong = need.version?.(found);
    if (wrong) {
      problems.push(`${name}: ${wrong}`);
      packages.add(need.pkg);
    }
  }
  if (problems.length === 0 && !otherTmux(env)) {
    problems.push(
      "a tmux of a second version, for the test of a host on another tmux than this machine's (build Debian 13's 3.5a with scripts/build-tmux.sh, or set TMUX_MCP_TEST_OTHER_TMUX to one)",
    );
  }
  return { problems, packages: [...packages] };
}

// Run as a script, also through a link (the compiled tests reach it as .test-build/scripts/).
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const { problems, packages } = preflight();
  if (problems.length > 0) {
    const install = packages.length > 0 ? `\nInstall them (as root): apt-get install -y ${packages.join(' ')}` : '';
    process.stderr.write(`npm test cannot start, missing or too old: ${problems.join('; ')}.${install}\n`);
    process.exit(1);
  }
}
