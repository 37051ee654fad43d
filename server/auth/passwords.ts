import argon2 from 'argon2';

// OWASP Password Storage Cheat Sheet, argon2id minimum: m=19 MiB, t=2, p=1.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

/** Runs on libuv's thread pool: hashing never blocks the event loop. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

const NOBODY = 'agency-desk: no such account';
let dummyHash: Promise<string> | undefined;

/** Makes the hash an unknown e-mail's sign-in verifies against; buildApp awaits it at start. */
export function prepareDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(NOBODY);
  return dummyHash;
}

/** Whether prepareDummyHash has run (tests: it runs at start, not at the first unknown e-mail). */
export function isDummyHashPrepared(): boolean {
  return dummyHash !== undefined;
}

/**
 * For an unknown e-mail the login still verifies a password against a hash made with the same
 * parameters, so that it takes as long as a wrong password for a real account (no enumeration by timing).
 */
export async function verifyAgainstNobody(password: string): Promise<false> {
  await verifyPassword(await prepareDummyHash(), password);
  return false;
}
