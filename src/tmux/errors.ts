/** Typed failures of talking to tmux. Each carries a hint that says what to do next. */

export class TmuxError extends Error {
  readonly hint: string;
  constructor(message: string, hint: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.hint = hint;
  }
}

/** tmux ran the command and refused it (`%error`, or a non-zero exit); `message` is tmux's own words. */
export class TmuxCommandError extends TmuxError {
  readonly command: readonly string[];
  constructor(command: readonly string[], tmuxMessage: string) {
    super(
      tmuxMessage || `tmux ${command[0] ?? ''} failed`,
      'Check the target with list_sessions / list_panes; ids change when objects are recreated.',
    );
    this.command = command;
  }
}

/** No tmux server is listening on the configured socket. */
export class TmuxNoServerError extends TmuxError {
  constructor(socket: string) {
    super(
      `no tmux server is running on ${socket}`,
      'Create a session first (create_session starts the tmux server), or point LIBTMUX_SOCKET_NAME / LIBTMUX_SOCKET_PATH at a running one.',
    );
  }
}

/** Something listens on the socket, but it does not speak tmux's protocol (another program, or a tmux that crashed). */
export class TmuxNotTmuxSocketError extends TmuxError {
  constructor(socket: string, tmuxMessage: string) {
    super(
      `the socket ${socket} does not answer as a tmux server (tmux said: ${tmuxMessage.trim().slice(0, 200)})`,
      'Another program may listen on that socket, or its tmux server crashed: check the socket path or name (--socket, LIBTMUX_SOCKET_PATH, LIBTMUX_SOCKET_NAME).',
    );
  }
}

/** The tmux binary could not be started at all. */
export class TmuxUnavailableError extends TmuxError {
  /** `words`: a message and hint of the caller's, for a tmux that runs but cannot be used (too old). */
  constructor(bin: string, cause: unknown, words?: { readonly message: string; readonly hint: string }) {
    super(
      words?.message ?? `cannot run tmux (${bin}): ${cause instanceof Error ? cause.message : String(cause)}`,
      words?.hint ?? 'Install tmux or set LIBTMUX_TMUX_BIN to its path.',
      { cause },
    );
  }
}

/** The system refused to start tmux because its arguments were too large (E2BIG); tmux never ran. */
export class TmuxArgumentsTooLongError extends TmuxError {
  constructor(command: readonly string[], bytes: number) {
    super(
      `tmux ${command[0] ?? ''} was not run: its arguments (${bytes} bytes) are more than the system allows one program`,
      'Send less at once (split long text over several calls).',
    );
  }
}

/** A command got no answer in time; the connection or process was ended. */
export class TmuxTimeoutError extends TmuxError {
  constructor(command: readonly string[], timeoutMs: number, host?: string) {
    super(
      `tmux ${command[0] ?? ''}${host === undefined ? '' : ` on host ${host}`} did not answer within ${timeoutMs} ms`,
      host === undefined
        ? 'The tmux server may be overloaded or stopped; retry once, then check it with get_server_info.'
        : `Host ${host} or its tmux is not answering; retry once (list_sessions names the hosts that answer). Calls on other hosts are not affected.`,
    );
  }
}

/** A tmux process wrote more to one stream than is kept: it was stopped, and nothing it wrote is used. */
export class TmuxOutputLimitError extends TmuxError {
  constructor(command: readonly string[], stream: 'stdout' | 'stderr', limit: number) {
    super(
      `${stream} exceeded ${limit} bytes`,
      `tmux ${command[0] ?? ''} wrote more than any answer of tmux should hold; check the tmux executable and its configuration.`,
    );
  }
}

/** The control-mode connection went away while a command was in flight. */
export class TmuxConnectionLostError extends TmuxError {
  /** True when tmux never began the command (no `%begin`), so sending it again cannot run it twice. */
  readonly notStarted: boolean;
  constructor(reason: string, notStarted = false) {
    super(
      `the tmux control connection closed: ${reason}`,
      'The tmux server or the session may have gone away; call list_sessions to see what is left.',
    );
    this.notStarted = notStarted;
  }
}

/**
 * tmux answered a control client's attach with an error: "no sessions" from a server that is
 * exiting after its last session went (it lingers until its clients leave), or a session that is
 * gone. Nothing was attached and no command ran, so the command can go another way.
 */
export class TmuxAttachRefusedError extends TmuxConnectionLostError {
  constructor(tmuxMessage: string) {
    super(`tmux refused the attach: ${tmuxMessage || 'no reason given'}`, true);
  }
}

/**
 * A configured host cannot be used: ssh could not reach or log in to it (`TmuxHostError.ssh`,
 * carrying ssh's own words), or the tmux there is missing or too old (`TmuxHostError.tmux`).
 */
export class TmuxHostError extends TmuxError {
  readonly host: string;
  private constructor(host: string, message: string, hint: string) {
    super(message, hint);
    this.host = host;
  }

  static ssh(host: string, destination: string, sshMessage: string): TmuxHostError {
    const said = lastLines(sshMessage) || 'the ssh connection failed or was closed (ssh exited with status 255 and said nothing)';
    // ssh's ConnectTimeout: the host took the connection (or none) and never answered.
    const silent = /timed out/i.test(said);
    return new TmuxHostError(
      host,
      `${silent ? `host ${host} did not answer` : `cannot reach host ${host}`} (ssh ${destination}): ${said}`,
      `Check that \`ssh -o BatchMode=yes ${shellWord(destination)} tmux -V\` works from this machine without a prompt (keys or agent, a known host key); calls on other hosts are not affected.`,
    );
  }

  /** Connected, but the host (its sshd, or its tmux) said nothing more within `ms`. */
  static silent(host: string, destination: string, ms: number): TmuxHostError {
    return new TmuxHostError(
      host,
      `host ${host} did not answer (ssh ${destination}): nothing came back within ${ms} ms of connecting`,
      `The host, its sshd or its tmux is not answering; calls on other hosts are not affected. Check \`ssh -o BatchMode=yes ${shellWord(destination)} tmux -V\` from this machine.`,
    );
  }

  static tmux(host: string, destination: string, problem: string): TmuxHostError {
    return new TmuxHostError(
      host,
      `tmux on host ${host} (ssh ${destination}) cannot be used: ${problem}`,
      `Install tmux 3.3a or newer on ${host}, or point TMUX_MCP_REMOTE_TMUX at one; calls on other hosts are not affected.`,
    );
  }
}

/**
 * A connection to a host went silent while something waited on it: no byte, not even the answer
 * to a heartbeat, within the silence limit. The link or the host is down (a drop without FIN or
 * RST); the connection was ended so that the calls in flight fail now, and the next call reconnects.
 */
export class TmuxLinkSilentError extends TmuxConnectionLostError {
  constructor(host: string, silenceMs: number) {
    super(`host ${host} sent nothing for ${silenceMs} ms, not even a heartbeat answer: the link or the host is down`);
  }
}

/** The last lines of a process's stderr, bounded: ssh's reason is at the end. */
function lastLines(text: string): string {
  return text.replaceAll('\r', '').trim().split('\n').slice(-3).join(' / ').slice(-500);
}

/** `text` as one word for a POSIX shell: as is when it holds nothing a shell reads specially, else single-quoted. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
