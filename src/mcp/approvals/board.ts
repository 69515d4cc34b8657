/**
 * The questions waiting for a person, as the live view shows them ("waiting for you"), and the
 * pause: a question is posted while its call waits and taken down when it is settled by any
 * channel, so the page never offers an answer to a call that is no longer waiting. Resume answers
 * the calls the pause held, in the order they came.
 */
import { randomBytes } from 'node:crypto';
import type { PendingQuestion } from './question.js';

export type { PendingQuestion } from './question.js';

export type Decision = 'approve' | 'deny';

/** How a person answered, and through which channel. */
export interface Answer {
  readonly decision: Decision;
  readonly channel: 'elicitation' | 'view' | 'terminal';
  readonly reason?: string;
}

export type BoardEvent =
  | { readonly kind: 'questions'; readonly questions: readonly PendingQuestion[] }
  | { readonly kind: 'paused'; readonly paused: boolean };

/** Longest reason kept from a person's answer. */
export const MAX_REASON = 500;

export class ApprovalBoard {
  readonly #pending = new Map<string, { readonly question: PendingQuestion; readonly settle: (answer: Answer) => void }>();
  readonly #listeners = new Set<(event: BoardEvent) => void>();
  #paused: boolean;

  constructor(startPaused = false) {
    this.#paused = startPaused;
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** A fresh question id. */
  static newId(): string {
    return randomBytes(12).toString('base64url');
  }

  /** Shows `question` until `settle` is called by an answer here or the returned withdraw runs. */
  post(question: PendingQuestion, settle: (answer: Answer) => void): () => void {
    this.#pending.set(question.id, { question, settle });
    this.#changed();
    return () => {
      if (this.#pending.delete(question.id)) this.#changed();
    };
  }

  /** The view's answer to question `id`; false when it no longer waits (answered elsewhere, withdrawn). */
  answer(id: string, decision: Decision, reason?: string): boolean {
    const entry = this.#pending.get(id);
    if (!entry) return false;
    const kept = reason?.trim().slice(0, MAX_REASON).trim();
    entry.settle({ decision, channel: 'view', ...(kept ? { reason: kept } : {}) });
    return true;
  }

  /** Pauses, or resumes and lets the calls the pause held go, in the order they came. */
  setPaused(paused: boolean): void {
    if (paused === this.#paused) return;
    this.#paused = paused;
    this.#emit({ kind: 'paused', paused });
    if (paused) return;
    for (const { question, settle } of [...this.#pending.values()])
      if (question.paused) settle({ decision: 'approve', channel: 'view', reason: 'resumed' });
  }

  list(): PendingQuestion[] {
    return [...this.#pending.values()].map((entry) => entry.question);
  }

  subscribe(listener: (event: BoardEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  #changed(): void {
    this.#emit({ kind: 'questions', questions: this.list() });
  }

  #emit(event: BoardEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A subscriber's fault is its own.
      }
    }
  }
}
