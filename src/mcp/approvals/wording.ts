/**
 * How approvals read: the question as a client's form and a terminal put it, and the refusal a
 * call answers with when a person said no, did not answer, or could not be asked.
 */
import { Failure } from '../../core/index.js';
import type { Answer, PendingQuestion } from './board.js';
import type { ApprovalRule } from './rules.js';

/** How a question ended. */
export type Settled =
  | { readonly answer: Answer }
  | { readonly timedOut: true }
  | { readonly cancelled: 'client' | 'stopping' }
  | { readonly failed: string };

/** The refusal of a call a rule meets when no channel can ask anyone. */
export function noOneToAsk(what: string, rule: ApprovalRule, howToAsk?: string): Failure {
  return new Failure(
    'denied',
    `${what} needs a person's approval (--approve ${rule.text}), and no one can be asked: this client does not support MCP elicitation and the server has no --view; nothing was sent`,
    howToAsk ??
      'A person can approve it through a client that supports elicitation, or through the live view (start the server with --view).',
  );
}

/** The question as the client's form and the terminal put it: tool, where, what it types, why it asks. */
export function questionText(question: PendingQuestion): string {
  return [
    `${question.paused ? 'The server is paused' : 'Approval needed'}: ${question.batch ? `${question.batch.tool} operations[${question.batch.index}] ` : ''}${question.tool}` +
      (question.client.name ? ` from ${question.client.name}` : ''),
    ...(question.where.length ? [`Where: ${question.where.join(', ')}`] : []),
    ...(question.text !== undefined ? [`Types or runs:\n${question.text}`] : [`Arguments: ${JSON.stringify(question.arguments)}`]),
    ...(question.rule ? [`Rule: ${question.rule}`] : []),
  ].join('\n');
}

/** A question's end as the call's answer: undefined when approved, else the refusal, saying by whom and why. */
export function refusalOf(settled: Settled, what: string, rule: ApprovalRule | undefined, timeoutMs: number): Failure | undefined {
  const why = rule ? `(--approve ${rule.text})` : '(the server is paused)';
  if ('answer' in settled) {
    if (settled.answer.decision === 'approve') return undefined;
    const by =
      settled.answer.channel === 'elicitation'
        ? 'in the client'
        : settled.answer.channel === 'view'
          ? 'in the live view'
          : 'on the terminal';
    return new Failure(
      'denied',
      `${what} was denied by a person ${by} ${why}${settled.answer.reason ? `: ${settled.answer.reason}` : ''}; nothing was sent`,
      'Do not retry it as it is; ask the person what to do instead.',
    );
  }
  if ('timedOut' in settled) {
    return new Failure(
      'denied',
      `${what} was not approved within ${timeoutMs / 1000} s ${why} (--approve-timeout); nothing was sent`,
      'A person was asked and did not answer; try again later or ask them.',
    );
  }
  if ('cancelled' in settled) {
    const why = settled.cancelled === 'stopping' ? 'the server is stopping' : 'the call was cancelled';
    return new Failure('cancelled', `${what} did not run: ${why} while it waited for approval; nothing was sent`, undefined, {
      touched: false,
    });
  }
  return new Failure(
    'denied',
    `${what} needs a person's approval ${why}, and the client could not be asked (${settled.failed}); nothing was sent`,
    'Approve it through the live view (--view), or use a client that supports elicitation.',
  );
}
