/**
 * The first answers over stdio, written before the SDK is loaded. A client opens with `initialize`,
 * then `tools/list`; both answers are fixed by the profile's surface (listing.ts), and loading the SDK
 * is most of start-up, so they are written from the surface directly and the SDK loads after. Anything else,
 * or anything not exactly the plain shape answered here, ends this phase unanswered: it and every
 * byte after it go to the SDK's wire, behind the `initialize`, which is replayed so the SDK server
 * holds the session as if it had answered it (its second answer is dropped: `answered`).
 */
import type { Readable, Writable } from 'node:stream';
import type { RequestId } from '@modelcontextprotocol/server';
import { jsonBytesProblem } from './json-limits.js';
import { ruleRefusal } from './jsonrpc-rules.js';
import { hasExactly, isObject, isRequestId } from './raw-json.js';
import { initializeResult, LEGACY_PROTOCOL_VERSIONS, type FirstSurface } from '../surface/listing.js';

/** What the SDK's wire takes over. */
export interface Handover {
  /** Read before anything else: the replayed `initialize` and notifications, then all input not handled here. */
  readonly pending: Buffer;
  /** Requests in `pending` answered here already: the SDK's answers to them are not written. */
  readonly answered: Set<RequestId>;
}

/** Past this the SDK is loaded even if no `tools/list` came. */
const LOAD_AFTER_INITIALIZE_MS = 100;
/** A first message longer than this is left to the SDK's wire and its limits. */
const MAX_LINE_BYTES = 64 * 1024;

type Message = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };

export class FirstAnswers {
  /** Settles when the SDK is wanted: `tools/list` answered, a message this phase does not answer, end of input, or a pause. */
  readonly needed: Promise<void>;
  #need!: () => void;
  #state: 'initialize' | 'initialized' | 'done' = 'initialize';
  #rest: Buffer = Buffer.alloc(0);
  readonly #replay: Buffer[] = [];
  readonly #answered = new Set<RequestId>();
  #timer?: NodeJS.Timeout;

  constructor(
    private readonly surface: FirstSurface,
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {
    this.needed = new Promise((resolve) => (this.#need = resolve));
    input.on('data', this.#onData);
    input.once('end', this.#done);
    input.once('close', this.#done);
  }

  /** Stops answering; what is left is the SDK's. */
  handOver(): Handover {
    this.#done();
    // Paused until the SDK's wire reads it: flowing with no listener, input would be lost.
    this.input.pause();
    this.input.off('data', this.#onData);
    this.input.off('end', this.#done);
    this.input.off('close', this.#done);
    return { pending: Buffer.concat([...this.#replay, this.#rest]), answered: this.#answered };
  }

  readonly #done = () => {
    this.#state = 'done';
    clearTimeout(this.#timer);
    this.#need();
  };

  readonly #onData = (chunk: Buffer) => {
    this.#rest = this.#rest.length ? Buffer.concat([this.#rest, chunk]) : chunk;
    for (let nl = this.#rest.indexOf(0x0a); nl !== -1 && this.#state !== 'done'; nl = this.#rest.indexOf(0x0a)) {
      const line = this.#rest.subarray(0, nl + 1);
      if (!this.#answer(line)) return this.#done();
      this.#rest = this.#rest.subarray(nl + 1);
    }
    if (this.#rest.length > MAX_LINE_BYTES) this.#done();
  };

  /** Answers or keeps `line` for replay; false when it is the SDK's to read. */
  #answer(line: Buffer): boolean {
    const message = this.#parse(line);
    if (message === undefined) return false;
    const { id, method, params } = message;
    if (this.#state === 'initialize') {
      if (method !== 'initialize' || !isRequestId(id) || !plainInitialize(params)) return false;
      this.#write(id, initializeResult(this.surface, params.protocolVersion));
      this.#replay.push(line);
      this.#answered.add(id);
      this.#state = 'initialized';
      this.#timer = setTimeout(this.#done, LOAD_AFTER_INITIALIZE_MS);
      return true;
    }
    if (method === 'notifications/initialized' && id === undefined && (params === undefined || isEmpty(params))) {
      this.#replay.push(line);
      return true;
    }
    if (method !== 'tools/list' || !isRequestId(id) || params !== undefined || this.#answered.has(id)) return false;
    this.output.write(`{"result":{"tools":${this.surface.toolsJson}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n`);
    this.#done();
    return true;
  }

  /** The message on `line` when it is one this phase may answer: small, well-formed, and admitted by the profile's rules. */
  #parse(line: Buffer): Message | undefined {
    const rules = this.surface.rules;
    if (line.length > MAX_LINE_BYTES || (rules?.limits && jsonBytesProblem(line.subarray(0, line.length - 1), rules.limits) !== undefined)) return undefined;
    let message: Message;
    try {
      message = JSON.parse(line.toString('utf8')) as Message;
    } catch {
      return undefined;
    }
    if (!isObject(message) || message.jsonrpc !== '2.0') return undefined;
    if (!hasExactly(message, [], ['jsonrpc', 'id', 'method', 'params'])) return undefined;
    if (rules && isRequestId(message.id) && typeof message.method === 'string') {
      const active = new Set<RequestId>();
      if (ruleRefusal({ id: message.id, method: message.method, ...(isObject(message.params) ? { params: message.params } : {}) }, rules, active)) return undefined;
    }
    return message;
  }

  #write(id: RequestId, result: object): void {
    // The SDK's own key order, so the bytes are the ones it would write.
    this.output.write(`${JSON.stringify({ result, jsonrpc: '2.0', id })}\n`);
  }
}

function isEmpty(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length === 0;
}

/**
 * An `initialize` the SDK would accept and answer as listing.ts does: a version it negotiates as
 * asked, capabilities as objects, and a client that gives a string name and version and nothing else.
 */
function plainInitialize(params: unknown): params is { protocolVersion: string } {
  if (!isObject(params) || !hasExactly(params, [], ['protocolVersion', 'capabilities', 'clientInfo'])) return false;
  const { protocolVersion, capabilities, clientInfo } = params;
  if (typeof protocolVersion !== 'string' || !LEGACY_PROTOCOL_VERSIONS.includes(protocolVersion)) return false;
  if (!isObject(capabilities) || Object.values(capabilities).some((value) => !isObject(value))) return false;
  const { roots, experimental } = capabilities as Record<string, Record<string, unknown>>;
  if (roots?.listChanged !== undefined && typeof roots.listChanged !== 'boolean') return false;
  if (experimental && Object.values(experimental).some((value) => !isObject(value))) return false;
  if (!isObject(clientInfo) || !hasExactly(clientInfo, [], ['name', 'version'])) return false;
  return typeof clientInfo.name === 'string' && typeof clientInfo.version === 'string';
}
