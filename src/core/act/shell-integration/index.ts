/**
 * Shell integration (docs/shell-integration.md): bash, zsh and fish print semantic-prompt marks
 * (marks.ts) so a command typed into a pane is the only thing the pane shows. Panes this server
 * creates start their shell with the scripts (bash --rcfile, zsh ZDOTDIR, fish --init-command);
 * a shell found at its prompt sources them once, typed. A shell with the scripts names itself in
 * the pane option @tmux_mcp_shell ("<pid> <shell> <nonce>"), which outlives this server.
 *
 * The scripts are files under the temporary directory of this machine, so only a local tmux gets
 * them; panes on hosts over ssh keep the framed form.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { Engine } from '../../engine.js';
import { BASH, FISH, ZSH } from './scripts.js';

/** Shells the scripts are written for. */
export type IntegratedShell = 'bash' | 'zsh' | 'fish';
export const INTEGRATED_SHELLS: ReadonlySet<string> = new Set<IntegratedShell>(['bash', 'zsh', 'fish']);

/** The pane options the scripts write. */
export const SHELL_OPTION = '@tmux_mcp_shell';
export const END_OPTION = '@tmux_mcp_end';
/** Set by the server on a command it timed out on (`<nonce>.<n>`): the shell signals channel tmux-mcp-<nonce>-<n> when it ends. */
export const WAIT_OPTION = '@tmux_mcp_wait';

/** The server's own switch: TMUX_MCP_SHELL_INTEGRATION=off keeps every pane framed as before. */
export function integrationEnabled(engine: Engine): boolean {
  return engine.tmux.host === undefined && !/^(0|off|false|no)$/i.test(process.env.TMUX_MCP_SHELL_INTEGRATION ?? '');
}

export interface Integration {
  readonly shell: IntegratedShell;
  readonly nonce: string;
  /** Announced by this server for a pane it created, and the shell has not run the script yet. */
  readonly starting?: boolean;
}

export function newNonce(): string {
  return randomBytes(6).toString('hex');
}

interface Files {
  readonly dir: string;
  readonly script: Record<IntegratedShell, string>;
  readonly bashrc: string;
  readonly bashrcInteractive: string;
  readonly zdotdir: string;
}

let files: Files | undefined;

/** Writes the scripts once per content into a directory of this user's (0700), and returns their paths. */
export function integrationFiles(): Files {
  if (files && existsSync(files.bashrc)) return files;
  const hash = createHash('sha256').update(BASH).update(ZSH).update(FISH).digest('hex').slice(0, 12);
  const base = join(tmpdir(), `tmux-mcp-${userInfo().uid}`);
  const dir = join(base, `shell-${hash}`);
  const zdotdir = join(dir, 'zdotdir');
  mkdirSync(zdotdir, { recursive: true, mode: 0o700 });
  const script = { bash: join(dir, 'integration.bash'), zsh: join(dir, 'integration.zsh'), fish: join(dir, 'integration.fish') };
  writeOnce(script.bash, BASH);
  writeOnce(script.zsh, ZSH);
  writeOnce(script.fish, FISH);
  const bashrc = join(dir, 'bashrc');
  // tmux starts the default shell as a login shell; --rcfile makes bash a plain interactive one, so this reads what a login bash would.
  writeOnce(
    bashrc,
    `# tmux-mcp: a new pane's bash reads what a login bash reads, then the shell integration\n` +
      `if [ -f /etc/profile ]; then . /etc/profile; fi\n` +
      `if [ -f ~/.bash_profile ]; then . ~/.bash_profile; elif [ -f ~/.bash_login ]; then . ~/.bash_login; elif [ -f ~/.profile ]; then . ~/.profile; fi\n` +
      `. ${shellQuote(script.bash)}\n`,
  );
  // zsh reads .zshenv from here first: it puts ZDOTDIR back, reads the user's own .zshenv, and zsh goes on with the user's files.
  writeOnce(
    join(zdotdir, '.zshenv'),
    `# tmux-mcp: ZDOTDIR pointed here only to read this file; the user's own start-up files follow\n` +
      `if [[ -n \${__TMCP_ZDOTDIR+x} ]]; then ZDOTDIR=$__TMCP_ZDOTDIR; else unset ZDOTDIR; fi\n` +
      `unset __TMCP_ZDOTDIR\n` +
      `[[ -f \${ZDOTDIR:-$HOME}/.zshenv ]] && source \${ZDOTDIR:-$HOME}/.zshenv\n` +
      `[[ -o interactive ]] && source ${shellQuote(script.zsh)}\n`,
  );
  // The same for a bash started as a command (not a login shell): what an interactive bash reads.
  const bashrcInteractive = join(dir, 'bashrc-interactive');
  writeOnce(
    bashrcInteractive,
    `# tmux-mcp: an interactive bash reads what it would read, then the shell integration\n` +
      `if [ -f /etc/bash.bashrc ]; then . /etc/bash.bashrc; fi\n` +
      `if [ -f ~/.bashrc ]; then . ~/.bashrc; fi\n` +
      `. ${shellQuote(script.bash)}\n`,
  );
  files = { dir, script, bashrc, bashrcInteractive, zdotdir };
  return files;
}

/**
 * Writes a file of the scripts' folder unless it is there as it should be. Written aside and renamed
 * into place, so a shell that another server process just started never reads it half-written.
 */
function writeOnce(path: string, content: string): void {
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return;
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(aside, content, { mode: 0o600 });
  renameSync(aside, path);
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The integration of the shell running in a pane now: its announcement names the pane's process and
 * the shell in its foreground (`busy`: or the shell runs a program there, for a line typed to queue behind it).
 */
export async function readIntegration(
  engine: Engine,
  pane: { readonly id: string; readonly pid: number; readonly currentCommand: string },
  busy = false,
): Promise<Integration | undefined> {
  const [value] = await engine.run(['display-message', '-p', '-t', pane.id, `#{${SHELL_OPTION}}`]);
  const [pid, shell, nonce, state] = (value ?? '').trim().split(' ');
  if (pid !== String(pane.pid) || !shell || !INTEGRATED_SHELLS.has(shell) || !nonce || !/^[A-Za-z0-9]{1,40}$/.test(nonce)) return undefined;
  const starting = state === 'starting';
  // A shell that started a program in its foreground is not reading commands, except while it starts up.
  if (baseName(pane.currentCommand) !== shell && !starting && !busy) return undefined;
  return { shell: shell as IntegratedShell, nonce, ...(starting ? { starting } : {}) };
}

export function baseName(command: string): string {
  return (command.split('/').pop() ?? command).replace(/^-/, '');
}

/** How a new pane starts its shell with the integration: the program to run (argv) and its environment. */
export interface Launch {
  readonly argv: string[];
  readonly environment: Record<string, string>;
  readonly integration: Integration;
}

/**
 * The launch of tmux's default shell with the integration, when it is bash, zsh or fish; undefined
 * otherwise (the pane starts as tmux would start it). `environment` is the caller's, to respect a
 * ZDOTDIR given there.
 */
export async function defaultShellLaunch(engine: Engine, environment: Readonly<Record<string, string>> = {}): Promise<Launch | undefined> {
  if (!integrationEnabled(engine)) return undefined;
  const [path] = await engine.run(['show-options', '-gv', 'default-shell']).catch(() => [] as string[]);
  // No server yet: tmux will start with SHELL as its default shell.
  const shellPath = (path ?? '').trim() || process.env.SHELL || '';
  if (!shellPath.startsWith('/')) return undefined;
  return shellLaunch(engine, shellPath, environment, true);
}

/**
 * The launch of the shell `program` (a path, or a name found on PATH) with the integration, when it
 * is bash, zsh or fish; undefined otherwise. `login`: started as tmux starts its default shell.
 */
export async function shellLaunch(
  engine: Engine,
  program: string,
  environment: Readonly<Record<string, string>> = {},
  login = false,
): Promise<Launch | undefined> {
  const shell = baseName(program);
  if (!integrationEnabled(engine) || !INTEGRATED_SHELLS.has(shell)) return undefined;
  const nonce = newNonce();
  const integration = { shell: shell as IntegratedShell, nonce };
  const paths = integrationFiles();
  if (shell === 'bash')
    return {
      argv: [program, '--rcfile', login ? paths.bashrc : paths.bashrcInteractive, '-i'],
      environment: { __TMCP_NONCE: nonce },
      integration,
    };
  if (shell === 'fish')
    return {
      argv: [program, ...(login ? ['--login'] : []), '--init-command', `source ${shellQuote(paths.script.fish)}`],
      environment: { __TMCP_NONCE: nonce },
      integration,
    };
  // zsh: ZDOTDIR leads it through our .zshenv first; as the default shell tmux starts it itself (a login shell).
  let original = environment.ZDOTDIR;
  if (original === undefined) {
    const [line] = await engine.run(['show-environment', '-g', 'ZDOTDIR']).catch(() => [] as string[]);
    if (line?.startsWith('ZDOTDIR=')) original = line.slice('ZDOTDIR='.length);
  }
  return {
    argv: login ? [] : [program, '-i'],
    environment: { ZDOTDIR: paths.zdotdir, ...(original !== undefined ? { __TMCP_ZDOTDIR: original } : {}), __TMCP_NONCE: nonce },
    integration,
  };
}

/** Records the integration a new pane's shell starts with (the target's active pane), before the shell itself says so. */
export async function announce(engine: Engine, target: string, integration: Integration): Promise<void> {
  // Unless the shell was quicker and announced itself already (its value holds the nonce).
  const value = `#{?#{m:*${integration.nonce}*,#{${SHELL_OPTION}}},#{${SHELL_OPTION}},#{pane_pid} ${integration.shell} ${integration.nonce} starting}`;
  await engine.run(['set-option', '-p', '-t', target, '-F', SHELL_OPTION, value]).catch(() => {});
}

/** The line that sources the script in a shell found at its prompt (leading space: out of history), erasing `rows` rows after. */
export function installLine(shell: IntegratedShell, nonce: string, rows: number): string {
  const script = integrationFiles().script[shell];
  return ` ${shell === 'fish' ? 'source' : '.'} ${shellQuote(script)} ${nonce} ${rows}`;
}
