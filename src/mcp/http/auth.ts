/**
 * The HTTP transport's bearer token: one shared secret, chosen by the user (TMUX_MCP_TOKEN or a file)
 * or generated at start-up, checked by the SDK's bearer-auth gate with a constant-time comparison.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostHeaderValidation, originValidation } from '@modelcontextprotocol/node';
import {
  bearerAuthChallengeResponse,
  localhostAllowedHostnames,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type AuthInfo,
} from '@modelcontextprotocol/server';

/** The gate in front of every HTTP request, given its Authorization header: the verified AuthInfo, or the 401 answer to send. */
export type BearerGate = (authorization: string | undefined) => Promise<AuthInfo | Response>;

export function bearerGate(expected: string): BearerGate {
  const matches = tokenCheck(expected);
  // The SDK refuses tokens without an expiry; this one lives as long as the process.
  const authInfo = (token: string): AuthInfo => ({
    token,
    clientId: 'tmux-mcp',
    scopes: [],
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
  });
  const options = {
    verifier: {
      async verifyAccessToken(token: string): Promise<AuthInfo> {
        if (!matches(token))
          throw new OAuthError(OAuthErrorCode.InvalidToken, 'the bearer token is not the one this server was started with');
        return authInfo(token);
      },
    },
  };
  // The SDK's requireBearerAuth, on the header itself (its first value). The right token, as the SDK
  // parses it, is let through at once; anything else is the SDK's to refuse.
  return async (authorization) => {
    const header = (authorization ?? '').split(',')[0] || undefined;
    const [type, token] = header?.split(' ') ?? [];
    if (type?.toLowerCase() === 'bearer' && token && matches(token)) return authInfo(token);
    try {
      return await verifyBearerToken(header, options);
    } catch (error) {
      return bearerAuthChallengeResponse(error);
    }
  };
}

/** Whether an Authorization header carries the token, for the connection guard (the gate still answers the request). */
export function bearerMatches(expected: string): (header: string | undefined) => boolean {
  const matches = tokenCheck(expected);
  return (header) => header !== undefined && /^bearer /i.test(header) && matches(header.slice(7).trim());
}

/** Whether a presented secret is `expected`, in constant time: the HTTP bearer token, the view's token and cookie. */
export function tokenCheck(expected: string): (presented: string) => boolean {
  const expectedDigest = digest(expected);
  // Digests have one length, so timingSafeEqual compares them without leaking the secret's length.
  return (presented) => timingSafeEqual(digest(presented), expectedDigest);
}

/**
 * The DNS-rebinding defence of every HTTP server here (MCP and the view), the SDK's own: a Host or
 * Origin header naming anything but loopback or `allowedHostnames` is answered 403. True: go on.
 */
export function hostGates(allowedHostnames: readonly string[]): (req: IncomingMessage, res: ServerResponse) => boolean {
  const allowed = [...localhostAllowedHostnames(), ...allowedHostnames];
  const checkHost = hostHeaderValidation(allowed);
  const checkOrigin = originValidation(allowed);
  return (req, res) => checkHost(req, res) && checkOrigin(req, res);
}

/** A fresh token for a start-up that was given none: 256 random bits, URL-safe. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
