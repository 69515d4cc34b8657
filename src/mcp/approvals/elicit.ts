/**
 * Asking through the client, with the SDK's own elicitation: in the 2025-11-25 era an
 * `elicitation/create` request sent during the call (the server holds the call and can withdraw the
 * question by cancelling it); in the 2026-07-28 era an `input_required` answer whose `requestState`
 * is sealed with the SDK's HMAC codec, checked by the SDK's verify hook on the retry, and good for
 * one retry of the very same call before its deadline: a forged, altered, expired or replayed state
 * is refused before any handler runs.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ElicitResult,
  type InputRequiredResult,
  type InputRequest,
  type Server,
  type ServerContext,
  type ServerOptions,
} from '@modelcontextprotocol/server';
import { MAX_REASON, type Answer } from './board.js';

/** The request a call came in on, as the SDK handed it to the tools/call handler. */
export interface ClientRequest {
  readonly server: Server;
  readonly ctx: ServerContext;
}

/** The form a client shows: approve or deny, and a reason. */
const REQUESTED_SCHEMA = {
  type: 'object',
  properties: {
    decision: { type: 'string', title: 'Let this call run?', enum: ['approve', 'deny'], enumNames: ['Approve: run it', 'Deny: refuse it'] },
    reason: { type: 'string', title: 'Reason (optional, shown to the agent)', maxLength: MAX_REASON },
  },
  required: ['decision'],
} as const;

/** How this request's client can be asked: 'legacy' (2025: during the call), 'modern' (2026: input_required), or not at all. */
export function elicitationEra(request: ClientRequest): 'legacy' | 'modern' | undefined {
  const envelope = request.ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const modern = envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined;
  const capabilities = (modern ? envelope?.[CLIENT_CAPABILITIES_META_KEY] : request.server.getClientCapabilities()) as
    | { elicitation?: { form?: unknown; url?: unknown } }
    | undefined;
  const elicitation = capabilities?.elicitation;
  // An empty elicitation capability means form mode (the 2025-06 shape); URL mode alone cannot show a form.
  if (!elicitation || (elicitation.form === undefined && elicitation.url !== undefined)) return undefined;
  return modern ? 'modern' : 'legacy';
}

/** 2025-11-25: asks with `elicitation/create` on this call; aborting `signal` withdraws it (the SDK cancels the request). */
export async function askDuringCall(request: ClientRequest, message: string, signal: AbortSignal, timeoutMs: number): Promise<Answer> {
  const result = await request.ctx.mcpReq.elicitInput(
    { mode: 'form', message, requestedSchema: REQUESTED_SCHEMA as never },
    // Related to the call, so over HTTP it travels on the call's own stream; our deadline ends it first.
    { relatedRequestId: request.ctx.mcpReq.id, signal, timeout: timeoutMs + 5000 },
  );
  return answerOf(result);
}

/** One question of an `input_required` answer, by its key. */
export function embeddedQuestion(message: string): InputRequest {
  return inputRequired.elicit({ mode: 'form', message, requestedSchema: REQUESTED_SCHEMA as never });
}

/** The client's answer to the question under `key` on a retried call; undefined when it carries none. */
export function answerIn(ctx: ServerContext, key: string): Answer | undefined {
  const view = inputResponse(ctx.mcpReq.inputResponses, key);
  if (view.kind !== 'elicit') return undefined;
  return answerOf({ action: view.action, ...(view.content ? { content: view.content as ElicitResult['content'] } : {}) });
}

/** accept + approve is the only yes; decline and dismissing the question are a no. */
function answerOf(result: ElicitResult): Answer {
  const content = (result.content ?? {}) as { decision?: unknown; reason?: unknown };
  const given = typeof content.reason === 'string' ? content.reason.trim().slice(0, MAX_REASON).trim() : '';
  if (result.action === 'accept' && content.decision === 'approve')
    return { decision: 'approve', channel: 'elicitation', ...(given ? { reason: given } : {}) };
  const reason =
    given || (result.action === 'decline' ? 'declined in the client' : result.action === 'cancel' ? 'dismissed in the client' : '');
  return { decision: 'deny', channel: 'elicitation', ...(reason ? { reason } : {}) };
}

/** What a sealed 2026 question says: the call it belongs to, when it was asked and must be answered, which units were asked. */
export interface SealedQuestion {
  /** One use only. */
  readonly id: string;
  /** Digest of the tool and its arguments: the retry must be the same call. */
  readonly call: string;
  readonly askedAt: number;
  readonly deadline: number;
  /** The keys asked, each with the rule that asked it. */
  readonly keys: ReadonlyArray<readonly [key: string, rule: string]>;
}

/**
 * The seal on 2026 questions: the SDK's HMAC codec with a key made for this process (one process
 * answers every round), its verify hook for every server the factory builds, and the ids already
 * used, kept until their seal expires.
 */
export class QuestionSeal {
  readonly #codec;
  readonly #used = new Map<string, number>();
  readonly #ttlMs: number;

  constructor(timeoutMs: number) {
    // A retry after the deadline is still read (to say it came too late); past this, the seal refuses it.
    this.#ttlMs = timeoutMs + 60_000;
    this.#codec = createRequestStateCodec<SealedQuestion>({
      key: randomBytes(32),
      ttlSeconds: Math.ceil(this.#ttlMs / 1000),
      bind: (ctx) => ctx.mcpReq.method,
    });
  }

  /** The `requestState` option of every server built: verify the seal, then refuse a state used before. */
  get serverOptions(): Pick<ServerOptions, 'requestState'> {
    return {
      requestState: {
        verify: async (state: string, ctx: ServerContext) => {
          const sealed = await this.#codec.verify(state, ctx);
          const now = Date.now();
          for (const [id, expires] of this.#used) if (expires < now) this.#used.delete(id);
          if (this.#used.has(sealed.id)) throw new Error('replayed');
          this.#used.set(sealed.id, now + this.#ttlMs);
          return sealed;
        },
      },
    };
  }

  seal(question: SealedQuestion, ctx: ServerContext): Promise<string> {
    return this.#codec.mint(question, ctx);
  }
}

/** The `input_required` answer: one embedded question per key, and the sealed state the retry must echo. */
export function askByInputRequired(
  questions: ReadonlyArray<readonly [key: string, message: string]>,
  requestState: string,
): InputRequiredResult {
  return inputRequired({
    inputRequests: Object.fromEntries(questions.map(([key, message]) => [key, embeddedQuestion(message)])),
    requestState,
  });
}

/** A digest of a call (tool and arguments, keys in a fixed order), to tie a sealed question to it. */
export function callDigest(tool: string, args: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([tool, canonical(args)]))
    .digest('base64url');
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}
