#!/usr/bin/env node
/** `tmux-mcp`: reads argv and the environment, then serves MCP over stdio. stdout carries only the protocol. */
import { checkTmuxBin, ConfigError, parseCli, PROFILES, DEFAULT_SOCKET_NAME, type Config } from './config.js';
import { EngineRegistry } from './core/registry.js';
import { createServerFactory } from './mcp/server.js';
import { serveBothErasOverStdio } from './mcp/stdio.js';
import { buildProfile } from './profiles/index.js';
import { VERSION } from './version.js';

const HELP = `tmux-mcp ${VERSION}: a Model Context Protocol server for tmux, over stdio.

Usage: tmux-mcp [--profile NAME]   serve MCP on stdin/stdout
       tmux-mcp --help | --version

Options:
  --profile NAME   contract to speak: ${PROFILES.join(', ')} (default libtmux; also TMUX_MCP_PROFILE)
  --host NAME=DEST[#SOCKET]
                   also serve the tmux on another host, over your own ssh (repeatable; also
                   TMUX_MCP_HOSTS, comma-separated). DEST: an ssh destination (config alias,
                   user@host, ssh://user@host:port); SOCKET: a tmux socket name, or a path
                   starting with /, on that host (default: the same socket name as here).
                   Address it as NAME:%3, NAME:@1, NAME:$0 or NAME:session; refs go back by themselves.

Environment:
  LIBTMUX_SOCKET_NAME     tmux socket name (tmux -L); default "${DEFAULT_SOCKET_NAME}", a private server
  LIBTMUX_SOCKET_PATH     tmux socket path (tmux -S); not together with LIBTMUX_SOCKET_NAME
  LIBTMUX_TMUX_BIN        tmux executable (default: tmux on PATH)
  LIBTMUX_TOOLSETS        comma list of inspect, manage, execute, teardown
                          (default inspect,manage,execute, plus teardown on the private default socket)
  LIBTMUX_TOOLS           tool names to add to the toolsets
  LIBTMUX_EXCLUDE_TOOLS   tool names to remove (also from what call_read_tools_batch may call)
  LIBTMUX_MCP_WAIT_MAX_SECONDS         ceiling for any wait (default 120)
  LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS  deadline for one tmux command (default 15; over ssh, also ConnectTimeout)
  TMUX_MCP_SSH_CONFIG     ssh config file for the hosts (ssh -F); default: ssh's own (~/.ssh/config)
  TMUX_MCP_SSH_BIN        ssh client (default: ssh on PATH)
  TMUX_MCP_REMOTE_TMUX    tmux on the hosts (default: tmux on the remote PATH)
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

/** Beyond the longest wait and one tmux command, the margin before answers in flight at end of input are given up. */
const DRAIN_SLACK_MS = 5000;

async function serve(config: Config): Promise<void> {
  await checkTmuxBin(config, process.env);
  const registry = new EngineRegistry({
    bin: config.tmuxBin,
    commandTimeoutMs: config.commandTimeoutMs,
    engine: { waitMaxMs: config.waitMaxMs, caller: config.caller },
    defaultLocation: { socketName: config.socketName, socketPath: config.socketPath },
    hosts: config.hosts,
  });
  const engine = registry.defaultEngine;
  const tmux = engine.tmux;
  const running = (await engine.identity().catch(() => undefined)) !== undefined;
  const { profile, selectionSummary } = buildProfile(config, registry, !running);
  const connection = serveBothErasOverStdio(createServerFactory(profile), {
    // Calls in flight when stdin ends are answered first; each is bounded by its own deadline.
    drainLimitMs: config.waitMaxMs + config.commandTimeoutMs + DRAIN_SLACK_MS,
  });

  let closing = false;
  const shutdown = async (code: number) => {
    if (closing) return;
    closing = true;
    await connection.close().catch(() => {});
    await registry.close();
    process.exit(code);
  };
  void connection.closed.then(() => shutdown(0));
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  process.stderr.write(
    `tmux-mcp ${VERSION}: profile ${config.profile}, socket ${tmux.socketLabel} (${config.socketSource}, ` +
      `${running ? 'server running' : 'no server yet'}), ` +
      (config.hosts.length ? `hosts ${config.hosts.map((h) => `${h.name}=${h.destination}`).join(' ')}, ` : '') +
      `${selectionSummary}\n`,
  );
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : error instanceof Error ? error.stack ?? error.message : String(error);
  process.stderr.write(`tmux-mcp: ${message}\n`);
  process.exit(2);
});
