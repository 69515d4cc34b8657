/**
 * Bounds what a client that has not shown the token can hold: each connection must send a request
 * with the right bearer token within a few seconds of connecting or it is closed, and at most
 * MAX_UNPROVEN such connections stay open at once (the oldest is closed for a new one, so a real
 * client, which sends its headers at once, still gets in while slow connections pile up). A
 * connection that carried the token is served like any other from then on.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a new connection has to send a request carrying the token. */
export const UNPROVEN_MS = 5_000;
/** Connections open at once that have not yet carried the token. */
export const MAX_UNPROVEN = 128;

export interface ConnectionGuard {
  /** A request with the right token arrived on `socket`: it is trusted from now on. */
  proven(socket: Socket): void;
  /** Whether `socket` has yet to carry the token (a proven one need not be checked again). */
  unproven(socket: Socket): boolean;
}

export function guardConnections(server: Server, options: { unprovenMs?: number; maxUnproven?: number } = {}): ConnectionGuard {
  const limitMs = options.unprovenMs ?? UNPROVEN_MS;
  const max = options.maxUnproven ?? MAX_UNPROVEN;
  // Insertion order is connection order: the first entry is the oldest.
  const unproven = new Map<Socket, NodeJS.Timeout>();
  const forget = (socket: Socket) => {
    clearTimeout(unproven.get(socket));
    unproven.delete(socket);
  };
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), limitMs);
    timer.unref();
    unproven.set(socket, timer);
    socket.once('close', () => forget(socket));
    if (unproven.size > max) {
      const [oldest] = unproven.keys();
      forget(oldest!);
      oldest!.destroy();
    }
  });
  return { proven: forget, unproven: (socket) => unproven.has(socket) };
}
