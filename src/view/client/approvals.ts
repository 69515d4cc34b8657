/**
 * The page's "waiting for you" panel and its Pause button: each call waiting for a person with
 * what it would do, where, and why it waits, and Approve / Deny; answers go back as a POST with
 * the page's CSRF token (the server also checks the cookie and the Origin). These buttons are the
 * page's only input: nothing typed here reaches a pane.
 */
import type { ViewQuestion } from '../wire.js';

const waitingEl = document.getElementById('waiting')!;
const listEl = document.getElementById('questions')!;
const pauseEl = document.getElementById('pause') as HTMLButtonElement | null;
const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
let paused = false;
let countdown: number | undefined;

async function post(path: string, body: object): Promise<void> {
  const answer = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
    body: JSON.stringify(body),
  });
  if (!answer.ok) {
    const { error } = (await answer.json().catch(() => ({ error: answer.statusText }))) as { error?: string };
    throw new Error(error ?? answer.statusText);
  }
}

pauseEl?.addEventListener('click', () => {
  pauseEl.disabled = true;
  void post('/pause', { paused: !paused })
    .catch((error: Error) => alert(`could not ${paused ? 'resume' : 'pause'}: ${error.message}`))
    .finally(() => (pauseEl.disabled = false));
});

export function showPaused(on: boolean): void {
  paused = on;
  if (!pauseEl) return;
  pauseEl.hidden = false;
  pauseEl.textContent = on ? 'Resume' : 'Pause';
  pauseEl.classList.toggle('on', on);
  pauseEl.title = on
    ? 'Calls that change anything wait; Resume lets them go in order'
    : 'Hold every call that would change anything until Resume';
}

export function showApprovals(questions: readonly ViewQuestion[]): void {
  listEl.replaceChildren(...questions.map(item));
  waitingEl.hidden = questions.length === 0;
  document.title = questions.length ? `(${questions.length}) waiting: tmux-mcp live view` : 'tmux-mcp live view (read-only)';
  if (countdown !== undefined) clearInterval(countdown);
  countdown = questions.length ? window.setInterval(tick, 1000) : undefined;
  tick();
}

function item(question: ViewQuestion): HTMLElement {
  const li = document.createElement('li');
  li.dataset.id = question.id;
  const line = (cls: string, text: string, tag = 'div') => {
    const el = document.createElement(tag);
    el.className = cls;
    el.textContent = text;
    return el;
  };
  const what = question.batch ? `${question.batch.tool} operations[${question.batch.index}]: ${question.tool}` : question.tool;
  li.append(line('what', `${what}${question.client.name ? ` from ${question.client.name}` : ''}`));
  if (question.where.length) li.append(line('where', question.where.join(', ')));
  li.append(line('text', question.text ?? JSON.stringify(question.arguments), 'pre'));
  li.append(line('why', question.paused ? 'held: the server is paused' : `rule ${question.rule}`));
  const left = line('left', '');
  left.dataset.deadline = String(question.deadline);
  li.append(left);
  const reason = document.createElement('input');
  reason.placeholder = 'reason (optional, shown to the agent)';
  reason.maxLength = 500;
  const approve = line('approve', 'Approve', 'button') as HTMLButtonElement;
  const deny = line('deny', 'Deny', 'button') as HTMLButtonElement;
  const answer = (decision: 'approve' | 'deny') => {
    approve.disabled = deny.disabled = true;
    void post(`/approvals/${encodeURIComponent(question.id)}`, {
      decision,
      ...(reason.value.trim() ? { reason: reason.value.trim() } : {}),
    }).catch((error: Error) => {
      left.textContent = `not answered: ${error.message}`;
      approve.disabled = deny.disabled = false;
    });
  };
  approve.addEventListener('click', () => answer('approve'));
  deny.addEventListener('click', () => answer('deny'));
  li.append(reason, approve, deny);
  return li;
}

function tick(): void {
  for (const el of listEl.querySelectorAll<HTMLElement>('.left[data-deadline]')) {
    const seconds = Math.max(0, Math.round((Number(el.dataset.deadline) - Date.now()) / 1000));
    if (!el.textContent?.startsWith('not answered')) el.textContent = `refused unanswered in ${seconds} s`;
  }
}
