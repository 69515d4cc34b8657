/**
 * The frame of a transport wrapper that sits between a wire and the SDK server and decides what
 * of the inbound traffic reaches the server: subclasses see every inbound message (`receive`),
 * every answer the server sends (`answered`), and may answer a request themselves (`refuse`).
 */
import type { JSONRPCMessage, RequestId, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { answeredId } from './message-kind.js';

export type Extra = Parameters<NonNullable<Transport['onmessage']>>[1];

export abstract class TransportGate implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(protected readonly inner: Transport) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const id = answeredId(message);
    if (id !== undefined) this.answered(id);
    await this.inner.send(message, options);
  }

  async close(): Promise<void> {
    this.reset();
    await this.inner.close();
  }

  /** An inbound message; pass it on with `forward`, or not. */
  protected abstract receive(message: JSONRPCMessage, extra: Extra): void;
  /** The server answered request `id` (or a gate refused it). */
  protected abstract answered(id: RequestId): void;
  /** The connection closes: forget what is tracked. */
  protected abstract reset(): void;

  protected forward(message: JSONRPCMessage, extra: Extra): void {
    this.onmessage?.(message, extra);
  }

  /** Answers a request with a JSON-RPC error, without the server. */
  protected refuse(id: RequestId | null, error: { readonly code: number; readonly message: string }): void {
    void this.inner.send({ jsonrpc: '2.0', id, error: { ...error } } as JSONRPCMessage).catch((failure: Error) => this.onerror?.(failure));
  }
}
