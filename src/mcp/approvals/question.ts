/**
 * A call waiting for a person, as the gate asks about it and the live view shows it: plain types, no
 * Node, so the view's page script (src/view/client) reads the same shape the server sends.
 */

/** A call waiting for a person, with the facts the person decides on. */
export interface PendingQuestion {
  /** Opaque and unguessable: the view's Approve and Deny name it. */
  readonly id: string;
  readonly tool: string;
  /** When the question is about one item of a batch. */
  readonly batch?: { readonly tool: string; readonly index: number };
  /** Where the call acts: `local:%3 (session agent, window 1)`, as far as it could be told. */
  readonly where: readonly string[];
  /** What it types or runs, exactly (bounded). */
  readonly text?: string;
  /** Its arguments, as the audit shows them (redacted). */
  readonly arguments: unknown;
  /** Why it waits: the rule that matched, or the pause. */
  readonly rule?: string;
  readonly paused: boolean;
  /** Who called (the audit's client). */
  readonly client: { readonly name?: string; readonly session?: string };
  /** When it was asked, ISO 8601, and when it will be refused unanswered (ms since the epoch). */
  readonly askedAt: string;
  readonly deadline: number;
}
