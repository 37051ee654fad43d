import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that has
 * signed in to an account gets a cookie naming that account, which later sign-ins to the same account
 * present. Such a sign-in is let past the lockouts that other callers' guesses build up (the account's
 * and the address's) and meets only the back-off of its own cookie: a local process guessing passwords
 * can slow itself down, never the account's owner.
 *
 * The cookie is `<nonce>.<HMAC-SHA256>` keyed by the account's stored password hash (its random salt and
 * digest live only in the encrypted database): nothing to store, valid across restarts, forged by nobody
 * without the database, and void once the password changes.
 */

/** A year: the cookie is renewed at every sign-in. */
export const DEVICE_COOKIE_SECONDS = 365 * 24 * 60 * 60;
// Sent with sign-ins only, never readable by a script, never sent by another site's request.
const ATTRIBUTES = `Max-Age=${DEVICE_COOKIE_SECONDS}; Path=/auth/callback; HttpOnly; SameSite=Strict`;
const TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** One cookie a user: several accounts can sign in from the same browser. */
export function deviceCookieName(userId: string): string {
  return `agency_desk_device_${createHash('sha256').update(userId).digest('hex').slice(0, 16)}`;
}

function mac(userId: string, nonce: string, passwordHash: string): Buffer {
  return createHmac('sha256', passwordHash).update(`agency-desk device cookie\0${userId}\0${nonce}`).digest();
}

/** A new device cookie for the account, as a Set-Cookie value. */
export function deviceCookie(userId: string, passwordHash: string): string {
  const nonce = randomBytes(16).toString('base64url');
  const token = `${nonce}.${mac(userId, nonce, passwordHash).toString('base64url')}`;
  return `${deviceCookieName(userId)}=${token}; ${ATTRIBUTES}`;
}

/**
 * The nonce of the account's device cookie in a Cookie header, when it is there and valid for the
 * account as it is now; null otherwise. The nonce names the cookie's own back-off.
 */
export function trustedDevice(cookieHeader: string | undefined, userId: string, passwordHash: string): string | null {
  if (cookieHeader === undefined) return null;
  const name = deviceCookieName(userId);
  for (const pair of cookieHeader.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1 || pair.slice(0, equals).trim() !== name) continue;
    const match = TOKEN.exec(pair.slice(equals + 1).trim());
    if (match === null) continue;
    const [, nonce, signature] = match as unknown as [string, string, string];
    if (timingSafeEqual(Buffer.from(signature, 'base64url'), mac(userId, nonce, passwordHash))) return nonce;
  }
  return null;
}
