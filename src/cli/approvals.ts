/**
 * The approval gate as the command line starts it (--approve, --approve-timeout, --start-paused):
 * the rules checked before anything is served, where calls act (asked of the engine registry), and
 * for an in-process `tmux-mcp call` on a terminal, the question put on that terminal.
 */
import { createInterface } from 'node:readline';
import { ConfigError, type Config } from '../config.js';
import type { EngineRegistry } from '../core/servers/registry.js';
import type { Answer } from '../mcp/approvals/board.js';
import { Approvals, type ApprovalOptions } from '../mcp/approvals/gate.js';
import { locator } from '../mcp/approvals/place.js';
import { parseRules, RuleError, type ApprovalRule } from '../mcp/approvals/rules.js';

/** The rules of the configuration, parsed; a bad one stops start-up as a usage error. */
export function approvalRules(config: Config): ApprovalRule[] {
  try {
    return parseRules(
      config.approvals?.rules ?? [],
      config.hosts.map((host) => host.name),
    );
  } catch (error) {
    if (error instanceof RuleError) throw new ConfigError(`--approve: ${error.message}`);
    throw error;
  }
}

export function openApprovals(
  config: Config,
  rules: readonly ApprovalRule[],
  registry: EngineRegistry,
  local?: Pick<ApprovalOptions, 'terminal' | 'howToAsk'>,
): Approvals {
  return new Approvals({
    rules,
    timeoutMs: config.approvals!.timeoutMs,
    startPaused: config.approvals!.startPaused,
    locate: locator(registry),
    ...local,
  });
}

/** What `tmux-mcp call` in this process offers: its terminal when it has one, and what to do when it has none. */
export function localAsking(): Pick<ApprovalOptions, 'terminal' | 'howToAsk'> {
  const terminal = terminalAsker();
  return {
    ...(terminal ? { terminal } : {}),
    howToAsk:
      'Run tmux-mcp call on a terminal (it asks there), or send the call with --url to a server started with --view and approve it in its page.',
  };
}

/**
 * Asks on the terminal (stderr, answered on stdin) when both are one; undefined otherwise, so a
 * call nobody can be asked about is refused rather than run.
 */
function terminalAsker(): ApprovalOptions['terminal'] {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  return (message, signal) =>
    new Promise<Answer>((resolve, reject) => {
      const prompt = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
      const end = () => {
        prompt.close();
        reject(new Error('the question was withdrawn'));
      };
      signal.addEventListener('abort', end, { once: true });
      prompt.question(`\n${message}\nApprove? [y/N, or a reason to deny] `, (reply) => {
        signal.removeEventListener('abort', end);
        prompt.close();
        const text = reply.trim();
        if (/^y(es)?$/i.test(text)) resolve({ decision: 'approve', channel: 'terminal' });
        else resolve({ decision: 'deny', channel: 'terminal', ...(text !== '' && !/^no?$/i.test(text) ? { reason: text } : {}) });
      });
    });
}
