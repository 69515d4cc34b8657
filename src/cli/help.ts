/** The text of `tmux-mcp --help`: every flag and variable the server reads, by what it is for. */
import { DEFAULT_HTTP_HOST, DEFAULT_SOCKET_NAME, PROFILES } from '../config.js';
import { VERSION } from '../version.js';

export const HELP = `tmux-mcp ${VERSION}: a Model Context Protocol server for tmux, over stdio or Streamable HTTP.

Usage: tmux-mcp [--profile NAME]                  serve MCP on stdin/stdout
       tmux-mcp --http [HOST:]PORT [options]      serve MCP at http://HOST:PORT/mcp
       tmux-mcp call TOOL [JSON] [options]       one tool call from a shell (tmux-mcp call --help)
       tmux-mcp tools [options]                  the tools in force, one a line
       tmux-mcp --help | --version

Options:
  --profile NAME       contract to speak: ${PROFILES.join(', ')} (default libtmux; also TMUX_MCP_PROFILE)
  --http [HOST:]PORT   Streamable HTTP, both protocol eras; HOST defaults to ${DEFAULT_HTTP_HOST} (loopback only);
                       every request needs "Authorization: Bearer <token>"
  --token-file PATH    the bearer token is this file's content (else TMUX_MCP_TOKEN, else one is
                       generated and printed once on stderr; a non-loopback HOST needs a chosen token)
  --allow-host NAME    also accept NAME in the Host and Origin headers (repeatable or a comma list;
                       localhost, 127.0.0.1 and [::1] always are, and so is a specific HOST)
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
  LIBTMUX_MCP_WAIT_MAX_SECONDS         ceiling for any wait, 1 to 600 seconds (default 120)
  LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS  deadline for one tmux command, 1 to 300 (default 15; over ssh, also ConnectTimeout)
  TMUX_MCP_SSH_CONFIG     ssh config file for the hosts (ssh -F); default: ssh's own (~/.ssh/config)
  TMUX_MCP_SSH_BIN        ssh client (default: ssh on PATH)
  TMUX_MCP_REMOTE_TMUX    tmux on the hosts (default: tmux on the remote PATH)
  TMUX_MCP_HOST_SILENCE_SECONDS  a host connection silent this long while a call waits on it
                          counts as dropped (default 0.75; 0.1 to 60)
  TMUX_MCP_TOKEN          bearer token for --http (and --view)

Oversight (any profile; see docs/oversight.md):
  --allow-session PATTERN  see and act only inside matching sessions (repeatable or a comma list;
                       also TMUX_MCP_ALLOW_SESSIONS): a name, a prefix ending in *, or HOST:PATTERN
                       for one host (local: this machine); a pattern without a host applies on every host
  --read-only          list and run only the tools that only read (also TMUX_MCP_READ_ONLY=1)
  --record DIR         record every pane the server types into, runs a command in, waits on,
                       captures or creates, as asciicast v2 files (asciinema play FILE) in DIR
                       (also TMUX_MCP_RECORD), which must exist and be writable (mkdir -m 700 DIR);
                       files are new (never overwritten), mode 0600
  --record-max-mb N    largest recording file (default 50; also TMUX_MCP_RECORD_MAX_MB); a full file
                       ends with a note
  --audit FILE         append one JSON line per tool call (batch items too) to FILE, created mode 0600
                       (also TMUX_MCP_AUDIT); a FILE that cannot be written stops start-up
  --audit-redact REGEX write matches in arguments and errors as [redacted] (repeatable; also TMUX_MCP_AUDIT_REDACT)
  --view [HOST:]PORT   a web page with the panes live (read-only), the audit trail, the calls waiting
                       for a person and a Pause button (also TMUX_MCP_VIEW); the token as for --http:
                       open http://HOST:PORT/?token=TOKEN once
  --approve RULE       a call the rule meets waits until a person approves it, in the MCP client
                       (elicitation) or the view; with neither, it is refused. Repeatable; also
                       TMUX_MCP_APPROVE (one rule a line, or a comma list). RULE: tool:GLOB (tool:kill_*),
                       destructive, or text:REGEX (what is typed or run, as the pane receives it),
                       optionally after HOST:, SESSION: or HOST:SESSION: (as --allow-session)
  --approve-timeout S  seconds a question waits before the call is refused (default 120, 1 to 3600;
                       also TMUX_MCP_APPROVE_TIMEOUT)
  --start-paused       with --view: calls that change anything wait until Resume on the page
                       (also TMUX_MCP_START_PAUSED=1)

Python profile (--profile python):
  LIBTMUX_SOCKET          the socket name for calls without socket_name (instead of LIBTMUX_SOCKET_NAME)
  LIBTMUX_SUPPRESS_HISTORY  run_command keeps commands out of shell history by default: 1 (default) or 0
  LIBTMUX_TOOLSETS        default inspect,manage,execute; teardown is opt-in
  LIBTMUX_MCP_WAIT_MAX_SECONDS  default 30, held to 1..120

Socket (any profile; wins over the environment):
  --socket PATH         tmux socket path (tmux -S)
  --socket-name NAME    tmux socket name (tmux -L)
  --tmux PATH           tmux executable

Julia profile (--profile julia):
  --tool NAME           enable a tool; repeat to replace the default set (list_panes, capture_pane,
                        send_keys); the order given is the tools/list order. Tools: list_panes,
                        capture_pane, send_keys, paste_text, resize_pane, kill_pane, run_operations,
                        create_session, teardown_session, wait_for_text, send_keys_and_wait
  --caller-pane ID      pane (exact id, e.g. %3) a call without "target" acts on; bound at start-up
                        to the running tmux server, so a restart makes it stale
  --allow-pane ID       permit only this pane (repeatable, at most 256); sessions created through
                        create_session are permitted too
  --allow-create        let create_session create sessions (owned by this process, killed at exit)
  --timeout SECONDS     deadline for everything one tool call does, > 0 and <= 30 (default 5)
  --workers N           tool calls run at once (default 4)
  --capacity N          tool calls running or queued, at most 16 (default 16); one more is refused
                        with JSON-RPC error -32000
  LIBTMUX_MCP_MAX_RESULT_BYTES  largest result payload, 1024..1048576 bytes (default 1048576);
                        a larger one is answered with the error code result_limit
`;
