import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe; only the SHA-256 of a token is ever stored (OWASP Session Management). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export const ACCESS_TOKEN_SECONDS = 60 * 60;
// A refresh token unused for 30 days expires; each refresh issues a new one (rotation).
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60;

/** Injected so that tests control expiry. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
