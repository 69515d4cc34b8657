/**
 * `tmux-mcp call TOOL [JSON]` and `tmux-mcp tools`: one tool call, or the listing, from a shell.
 * Exit status: 0 with the result on stdout; 1 when the tool (or the server) reports an error, one
 * message on stderr; 2 for bad usage (unknown tool or flag, JSON that is not an object).
 *
 * The server's flags and environment choose the engine and profile the call runs in (in this
 * process); `--url` (or TMUX_MCP_URL) sends it to a running `tmux-mcp --http` instead.
 */
import { fstatSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../config.js';
import { parseCli } from './options.js';
import { SelectionError } from '../mcp/tools/selection.js';
import { ProtocolRefusal, type CallSession, type ListedTool, type ToolResult } from './session.js';
import { toolHelp, toolLines } from './tool-help.js';

export const COMMANDS_HELP = `Usage: tmux-mcp call TOOL [JSON | -] [options]   one tool call; the result on stdout
       tmux-mcp call TOOL --help                 the tool's arguments
       tmux-mcp tools [options]                  the tools in force, one a line

JSON is the tool's arguments as one object ('{"paneId": "%0"}'). "-" reads them from stdin; without
JSON they are read from stdin when it is a file, or a pipe whose writer has already finished
(echo '{...}' | tmux-mcp call TOOL); a pipe still open is not waited for; none is {}.
Exit status: 0 the call succeeded (its result on stdout: the structured content as JSON, else the
text; what the server said beside it on stderr); 1 the tool answered with an error (one message
on stderr); 2 bad usage.

Options:
  --url URL            send the call to a running \`tmux-mcp --http\` (also TMUX_MCP_URL), sharing its
                       engine: waits and cursors, refs; its own oversight applies
  --token-file PATH    with --url: the bearer token is this file's content (else TMUX_MCP_TOKEN)
  any server option    without --url: --profile, --socket, --socket-name, --tmux, --host, the julia
                       flags, --allow-session, --read-only, --audit (this call's line is appended,
                       client tmux-mcp-call), --record (the panes it acts on, while it runs), --approve
                       (a call a rule meets asks on this terminal; refused when there is none), and the
                       same environment as the server (see tmux-mcp --help); --view needs a server
`;

/** Stops with exit status 2: the caller's mistake, said in one line. */
class UsageError extends Error {}

interface Parsed {
  readonly command: 'call' | 'tools';
  readonly tool?: string;
  readonly json?: string;
  readonly help: boolean;
  readonly url?: string;
  readonly tokenFile?: string;
  /** What is left for the server's own parser (parseCli). */
  readonly serverArgs: string[];
}

/** Flags of the server that take no value; every other `--flag` takes one (as `--flag value` or `--flag=value`). */
const SERVER_SWITCHES = new Set(['--allow-create', '--read-only']);

function parse(argv: readonly string[]): Parsed {
  const [command, ...rest] = argv as ['call' | 'tools', ...string[]];
  const positional: string[] = [];
  const serverArgs: string[] = [];
  let help = false;
  let url: string | undefined;
  let tokenFile: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq !== -1 ? arg.slice(0, eq) : arg;
    const value = () => {
      const next = eq !== -1 && arg.startsWith('--') ? arg.slice(eq + 1) : rest[++i];
      if (next === undefined || next === '') throw new UsageError(`${flag} needs a value`);
      return next;
    };
    if (arg === '--help' || arg === '-h') help = true;
    else if (flag === '--url') url = value();
    else if (flag === '--token-file') tokenFile = value();
    else if (flag === '--http')
      throw new UsageError(`--http serves MCP; \`tmux-mcp ${command}\` makes one call (to a running server: --url)`);
    else if (arg === '-' || !arg.startsWith('-')) positional.push(arg);
    else if (SERVER_SWITCHES.has(arg) || eq !== -1) serverArgs.push(arg);
    else {
      serverArgs.push(arg);
      if (rest[i + 1] !== undefined) serverArgs.push(rest[++i]!);
    }
  }
  if (command === 'tools') {
    if (positional.length > 0)
      throw new UsageError(`tmux-mcp tools takes no argument, not "${positional[0]}"; to call a tool: tmux-mcp call TOOL`);
    return { command, help, serverArgs, ...(url ? { url } : {}), ...(tokenFile ? { tokenFile } : {}) };
  }
  const [tool, json, extra] = positional;
  if (tool === undefined || tool === '-') {
    if (help) return { command, help, serverArgs };
    throw new UsageError('tmux-mcp call needs a tool name: tmux-mcp call TOOL [JSON] (tmux-mcp tools lists them)');
  }
  if (extra !== undefined)
    throw new UsageError(`tmux-mcp call takes one JSON argument; "${extra}" is one too many (quote the JSON as one word)`);
  return {
    command,
    tool,
    help,
    serverArgs,
    ...(json !== undefined ? { json } : {}),
    ...(url ? { url } : {}),
    ...(tokenFile ? { tokenFile } : {}),
  };
}

export interface Io {
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
}

/** Runs `call` or `tools` (argv[0]) and resolves with the exit status. */
export async function runCommand(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const say = (stream: NodeJS.WriteStream, text: string) => new Promise<void>((resolve) => stream.write(text, () => resolve()));
  let session: CallSession | undefined;
  const interrupt = () => void (session?.close() ?? Promise.resolve()).finally(() => process.exit(130));
  process.once('SIGINT', interrupt);
  try {
    const parsed = parse(argv);
    if (parsed.help && parsed.tool === undefined) {
      await say(io.stdout, COMMANDS_HELP);
      return 0;
    }
    // Arguments first: a call with unreadable JSON starts nothing.
    const args = parsed.command === 'call' && !parsed.help ? await argumentsOf(parsed.json, io.stdin) : {};
    session = await open(parsed, env);
    if (parsed.command === 'tools') {
      await say(io.stdout, toolLines(await session.listTools()));
      return 0;
    }
    const tool = parsed.tool!;
    if (parsed.help) {
      const listed = (await session.listTools()).find((candidate) => candidate.name === tool);
      if (!listed) throw new UsageError(await unknownTool(session, tool));
      await say(io.stdout, toolHelp(listed));
      return 0;
    }
    let result: ToolResult;
    try {
      result = await session.callTool(tool, args);
    } catch (error) {
      // The server refused the request itself: a tool that is not there, or not selected.
      if (error instanceof ProtocolRefusal)
        throw new UsageError(`${error.message.replace(/; call tools\/list.*$/, '')} (tmux-mcp tools lists the tools in force)`);
      throw error;
    }
    if (result.isError) {
      const message = errorMessage(result);
      // Argument errors already open with the tool's name; say it once.
      await say(io.stderr, `tmux-mcp: ${message.startsWith(`${tool}:`) ? message : `${tool}: ${message}`}\n`);
      return 1;
    }
    await say(io.stdout, render(result));
    // What the server said beside the result (a host that did not answer, what to do next) is not lost.
    const beside = besideText(result);
    if (beside !== '') await say(io.stderr, beside);
    return 0;
  } catch (error) {
    const usage = error instanceof UsageError || error instanceof ConfigError || error instanceof SelectionError;
    await say(io.stderr, `tmux-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return usage ? 2 : 1;
  } finally {
    process.removeListener('SIGINT', interrupt);
    await session?.close().catch(() => {});
  }
}

async function open(parsed: Parsed, env: NodeJS.ProcessEnv): Promise<CallSession> {
  const url = parsed.url ?? nonEmpty(env.TMUX_MCP_URL);
  if (url === undefined) {
    if (parsed.tokenFile !== undefined) throw new UsageError('--token-file applies to --url only');
    const action = parseCli(parsed.serverArgs, env);
    if (action.kind !== 'serve') throw new UsageError(`tmux-mcp ${parsed.command}: see tmux-mcp call --help`);
    // Loaded only here: the engine, the profiles and the MCP server are what --url does without.
    const { openLocalSession } = await import('./local-session.js');
    return openLocalSession(action.config, env);
  }
  if (parsed.serverArgs.length > 0) {
    throw new UsageError(
      `${parsed.serverArgs[0]} chooses the engine this process would start; with --url the server at ${url} has its own`,
    );
  }
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new UsageError(`--url takes the server's URL, like http://127.0.0.1:8765/mcp, not "${url}"`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new UsageError(`--url must be http:// or https://, not ${target.protocol}`);
  const { openRemoteSession } = await import('./remote-session.js');
  return openRemoteSession(target, await tokenOf(parsed.tokenFile, env));
}

/** The token as `tmux-mcp --http` takes it: TMUX_MCP_TOKEN or --token-file, not both. */
async function tokenOf(tokenFile: string | undefined, env: NodeJS.ProcessEnv): Promise<string> {
  const fromEnv = nonEmpty(env.TMUX_MCP_TOKEN);
  if (fromEnv !== undefined && tokenFile !== undefined)
    throw new UsageError('TMUX_MCP_TOKEN and --token-file are both set; give the token one way');
  if (fromEnv !== undefined) return fromEnv;
  if (tokenFile === undefined) throw new UsageError("--url needs the server's bearer token: set TMUX_MCP_TOKEN or pass --token-file PATH");
  const value = (
    await readFile(tokenFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`--token-file ${tokenFile}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
    })
  ).trim();
  if (value === '') throw new UsageError(`--token-file ${tokenFile} is empty; put the token in it`);
  return value;
}

/**
 * The JSON argument, or stdin's: with "-" whatever stdin is; with no argument only when stdin is a
 * file, or a pipe whose writer has finished (or is writing) by the time it is looked at, so a
 * caller that leaves stdin open (`sleep 6 | tmux-mcp call ...`, an agent's shell, a program spawning
 * us with pipes it never closes, a terminal) does not hold the call up. It must be one object.
 */
async function argumentsOf(json: string | undefined, stdin: NodeJS.ReadStream): Promise<Record<string, unknown>> {
  let text = json;
  let from = 'the JSON argument';
  if (json === undefined || json === '-') {
    from = 'stdin';
    const kind = stdinKind(stdin);
    text = json === '-' || kind === 'file' ? await readAll(stdin) : kind === 'pipe' ? ((await finishedPipe(stdin)) ?? '') : '';
  }
  if (text!.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text!);
  } catch (error) {
    throw new UsageError(`${from} is not JSON (${(error as Error).message}); give the arguments as one object, like '{"paneId": "%0"}'`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(
      `${from} must be a JSON object of arguments, like '{"paneId": "%0"}', not ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`,
    );
  }
  return value as Record<string, unknown>;
}

function stdinKind(stdin: NodeJS.ReadStream): 'file' | 'pipe' | 'other' {
  try {
    const stat = fstatSync((stdin as { fd?: number }).fd ?? 0);
    return stat.isFile() ? 'file' : stat.isFIFO() ? 'pipe' : 'other';
  } catch {
    return 'other';
  }
}

/** How long a shell pipe is given to show that its writer has written or finished. */
const PIPE_LOOK_MS = 50;

/**
 * A pipe's content when its writer has finished, or has begun writing, within PIPE_LOOK_MS (then
 * read to its end); undefined when it stays silent and open. The decision waits one more turn of
 * the event loop after the timer, so data that was there all along is always seen first.
 */
function finishedPipe(stdin: NodeJS.ReadStream): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => finish(Buffer.concat(chunks).toString('utf8'));
    const finish = (text: string | undefined) => {
      clearTimeout(timer);
      stdin.off('data', onData).off('end', onEnd).off('error', reject);
      resolve(text);
    };
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (chunks.length > 0) return; // being written: read to the end
          stdin.pause();
          stdin.destroy();
          finish(undefined);
        }),
      PIPE_LOOK_MS,
    );
    stdin.on('data', onData).once('end', onEnd).once('error', reject);
  });
}

async function readAll(stream: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function unknownTool(session: CallSession, tool: string): Promise<string> {
  const names = (await session.listTools()).map((listed: ListedTool) => listed.name);
  const { nearest } = await import('../mcp/tools/nearest.js');
  const near = nearest(tool, names);
  return `no tool "${tool}" is in force at ${session.label}${near ? `; did you mean ${near}?` : ''} (tmux-mcp tools lists them)`;
}

/** The structured content as JSON, else the text blocks. */
function render(result: ToolResult): string {
  if (result.structuredContent !== undefined) return `${JSON.stringify(result.structuredContent, null, 2)}\n`;
  const text = (result.content ?? [])
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
  return text.endsWith('\n') || text === '' ? text : `${text}\n`;
}

/**
 * The text a structured result came with, less what stdout shows already: the JSON of the result
 * (a text that is or begins with it), or a text the result carries as a value (python's `result`).
 */
function besideText(result: ToolResult): string {
  const structured = result.structuredContent;
  if (structured === undefined) return '';
  const json = JSON.stringify(structured);
  const values = new Set(Object.values(structured).filter((value) => typeof value === 'string'));
  const said = (result.content ?? [])
    .filter((block) => block.type === 'text' && block.text !== undefined && !values.has(block.text))
    .map((block) => (block.text!.startsWith(json) ? block.text!.slice(json.length) : block.text!).trim())
    .filter((text) => text !== '');
  return said.length > 0 ? `${said.join('\n')}\n` : '';
}

/** A tool error in one message: its text, or a julia envelope's code and message. */
function errorMessage(result: ToolResult): string {
  const text = (result.content ?? [])
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n')
    .trim();
  try {
    const envelope = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; effects?: unknown; retryable?: unknown } };
    const error = envelope.error;
    if (error && typeof error.code === 'string' && typeof error.message === 'string') {
      const notes = [
        error.effects === 'possible' ? 'it may have changed something' : '',
        error.retryable === true ? 'retryable' : '',
      ].filter(Boolean);
      return `${error.code}: ${error.message}${notes.length ? ` (${notes.join('; ')})` : ''}`;
    }
  } catch {
    // Not JSON: the text is the message.
  }
  return text || 'the tool failed and said nothing more';
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
