/**
 * JSON-RPC admission rules a contract may ask for, as a transport wrapper in front of the SDK
 * server (so both eras and every wire get them): only the listed methods are answered (-32601),
 * a request id may not be reused while its request is still running (-32600), `initialize` must
 * name the one legacy version and come while nothing else runs (-32602), and a request that names
 * its protocol version in `_meta` must name the modern one (-32602).
 */
import type { JSONRPCMessage, RequestId, Transport } from '@modelcontextprotocol/server';
import { cancelledId, isRequest } from './message-kind.js';
import { TransportGate, type Extra } from './transport-gate.js';
import type { JsonLimits } from './json-limits.js';

export interface JsonRpcRules {
  /** Request methods answered; any other gets -32601. */
  readonly methods: ReadonlySet<string>;
  /** The only protocol version `initialize` may ask for. */
  readonly legacyVersion: string;
  /** The only version a request may name in `_meta` (the 2026 era's per-request version). */
  readonly modernVersion: string;
  /** Limits on each inbound message's raw JSON, applied by the wire that reads it (stdio lines, HTTP bodies). */
  readonly limits?: JsonLimits;
}

export interface RuleRefusal {
  /** null when the request's own id may not be used (a duplicate). */
  readonly id: RequestId | null;
  readonly error: { readonly code: number; readonly message: string; readonly data?: Record<string, unknown> };
  /** Over HTTP: 400 for a request that cannot be taken as sent (a duplicate id, a version not served), else 200. */
  readonly httpStatus: 200 | 400;
}

/** Why `request` is refused under `rules`, given the ids of the requests still running beside it; undefined to serve it. */
export function ruleRefusal(
  request: { id: RequestId; method: string; params?: Record<string, unknown> },
  rules: JsonRpcRules,
  active: ReadonlySet<RequestId>,
): RuleRefusal | undefined {
  if (active.has(request.id)) return { id: null, error: RULE_ERRORS.duplicateId, httpStatus: 400 };
  if (!rules.methods.has(request.method)) return { id: request.id, error: RULE_ERRORS.notEnabled, httpStatus: 200 };
  if (request.method === 'initialize' && (request.params?.protocolVersion !== rules.legacyVersion || active.size > 0)) {
    return { id: request.id, error: RULE_ERRORS.legacyInit, httpStatus: 200 };
  }
  const meta = request.params?._meta as Record<string, unknown> | undefined;
  if (meta && VERSION_META in meta && meta[VERSION_META] !== rules.modernVersion) {
    // The contract's code and message; the data and the HTTP 400 are what 2026-07-28 asks of an
    // unsupported version (the per-request version served, the one asked for), so a client can choose again.
    const requested = meta[VERSION_META];
    const echo = typeof requested === 'string' && requested.length <= 64 ? { requested } : {};
    return {
      id: request.id,
      error: { ...RULE_ERRORS.modernVersion, data: { supported: [rules.modernVersion], ...echo } },
      httpStatus: 400,
    };
  }
  return undefined;
}

const VERSION_META = 'io.modelcontextprotocol/protocolVersion';

const RULE_ERRORS = {
  notEnabled: { code: -32601, message: 'Method is not enabled' },
  duplicateId: { code: -32600, message: 'Duplicate active request ID' },
  legacyInit: { code: -32602, message: 'Legacy initialization requires an idle session and version 2025-11-25' },
  modernVersion: { code: -32602, message: 'Unsupported modern protocol version' },
} as const;

export function withJsonRpcRules(inner: Transport, rules: JsonRpcRules): Transport {
  return new RulesGate(inner, rules);
}

class RulesGate extends TransportGate {
  /** Requests passed on and not yet answered. */
  readonly #active = new Set<RequestId>();

  constructor(
    inner: Transport,
    private readonly rules: JsonRpcRules,
  ) {
    super(inner);
  }

  protected reset(): void {
    this.#active.clear();
  }

  protected receive(message: JSONRPCMessage, extra: Extra): void {
    if (isRequest(message)) {
      const refusal = ruleRefusal(message, this.rules, this.#active);
      if (refusal) return this.refuse(refusal.id, refusal.error);
      this.#active.add(message.id);
    }
    // A cancelled request is never answered: it is no longer active.
    const cancelled = cancelledId(message);
    if (cancelled !== undefined) this.#active.delete(cancelled);
    this.forward(message, extra);
  }

  protected answered(id: RequestId): void {
    this.#active.delete(id);
  }
}
