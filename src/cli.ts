#!/usr/bin/env node
/** `tmux-mcp`: reads argv and the environment, then serves MCP over stdio. stdout carries only the protocol. */
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { ConfigError, parseCli, PROFILES, DEFAULT_SOCKET_NAME, type Config } from './config.js';
import { Engine } from './core/engine.js';
import { createMcpServer } from './mcp/server.js';
import { buildProfile } from './profiles/index.js';
import { TmuxServer } from './tmux/server.js';
import { VERSION } from './version.js';
import { collectWhenIdle } from './idle-memory.js';

const HELP = `tmux-mcp ${VERSION}: a Model Context Protocol server for tmux, over stdio.

Usage: tmux-mcp [--profile NAME]   serve MCP on stdin/stdout
       tmux-mcp --help | --version

Options:
  --profile NAME   contract to speak: ${PROFILES.join(', ')} (default libtmux; also TMUX_MCP_PROFILE)

Environment:
  LIBTMUX_SOCKET_NAME     tmux socket name (tmux -L); default "${DEFAULT_SOCKET_NAME}", a private server
  LIBTMUX_SOCKET_PATH     tmux socket path (tmux -S); not together with LIBTMUX_SOCKET_NAME
  LIBTMUX_TMUX_BIN        tmux executable (default: tmux on PATH)
  LIBTMUX_TOOLSETS        comma list of inspect, manage, execute, teardown
                          (default inspect,manage,execute; teardown too when this process starts the tmux server)
  LIBTMUX_TOOLS           tool names to add to the toolsets
  LIBTMUX_EXCLUDE_TOOLS   tool names to remove (also from what call_read_tools_batch may call)
  LIBTMUX_MCP_WAIT_MAX_SECONDS         ceiling for any wait (default 120)
  LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS  deadline for one tmux command (default 15)
`;

async function main(): Promise<void> {
  const action = parseCli(process.argv.slice(2), process.env);
  if (action.kind === 'help') {
    process.stdout.write(HELP);
    return;
  }
  if (action.kind === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  await serve(action.config);
}

async function serve(config: Config): Promise<void> {
  const tmux = new TmuxServer({
    bin: config.tmuxBin,
    socketName: config.socketName,
    socketPath: config.socketPath,
    commandTimeoutMs: config.commandTimeoutMs,
  });
  const engine = new Engine(tmux, { waitMaxMs: config.waitMaxMs, caller: config.caller });
  const running = (await engine.identity().catch(() => undefined)) !== undefined;
  const { profile, selectionSummary } = buildProfile(config, engine, !running);
  const server = createMcpServer(profile);

  let closing = false;
  const shutdown = async (code: number) => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => {});
    await tmux.close();
    process.exit(code);
  };
  server.onclose = () => void shutdown(0);
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  process.stdin.on('end', () => void shutdown(0));

  await server.connect(new StdioServerTransport());
  collectWhenIdle();
  process.stderr.write(
    `tmux-mcp ${VERSION}: profile ${config.profile}, socket ${tmux.socketLabel} (${config.socketSource}, ` +
      `${running ? 'server running' : 'no server yet'}), ${selectionSummary}\n`,
  );
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : error instanceof Error ? error.stack ?? error.message : String(error);
  process.stderr.write(`tmux-mcp: ${message}\n`);
  process.exit(2);
});
