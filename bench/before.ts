/**
 * The figures before the simplification, p50 unless named otherwise: bench/RESULTS.md as
 * committed at 6647402, the run of December 5 (tree at 49edc8c; 2 cores, tmux 3.3a, Node 20, idle
 * CPUs held polling), the same figures README.md gave. Each stdio call there was measured
 * interleaved with the no-op server after 2,000 warm-up calls, as the calls scenario measures now.
 */
export const BEFORE = {
  calls: {
    list_sessions: 0.16,
    'list_panes (8 panes)': 0.5,
    get_pane_info: 0.31,
    'capture_pane (visible screen)': 0.24,
    'send_keys (one key + Enter)': 0.42,
  } as Record<string, number>,
  /** The no-op SDK server's p50, measured call for call beside each of those. */
  callsNoop: {
    list_sessions: 0.17,
    'list_panes (8 panes)': 0.16,
    get_pane_info: 0.13,
    'capture_pane (visible screen)': 0.11,
    'send_keys (one key + Enter)': 0.14,
  } as Record<string, number>,
  /** run_shell_command `true` in a framed sh pane. */
  run: 1.14,
  /** wait_for_text, from the pane printing to the result received. */
  wait: 1.55,
  /** list_panes at 200 panes, every contract field; the 3-field peer's way beside it was 8.33. */
  panes200: 7.23,
  /** Spawn to the first tools/list answer, by profile (the no-op SDK server, unbundled then: 189). */
  start: { libtmux: 95.4, python: 101, julia: 92.9 } as Record<string, number>,
  /** VmRSS of the server and its tmux clients at rest after 1,000 mixed calls, MB (the no-op server: 80.4). */
  memoryMb: 81.4,
  /** 50 HTTP clients at once: p99 by era and mix. */
  http: {
    'HTTP 2026-07-28, list_sessions + capture_pane': 31.0,
    'HTTP 2026-07-28, + list_panes': 31.8,
    'HTTP 2025-11-25, list_sessions + capture_pane': 28.0,
    'HTTP 2025-11-25, + list_panes': 27.5,
  } as Record<string, number>,
};
