import { isIPv6 } from 'node:net';
import type { Clock } from './tokens.js';

interface Entry {
  failures: number;
  blockedUntil: number;
  lastFailure: number;
}

export interface ThrottleRule {
  /** Failures allowed before any wait. */
  free: number;
  /** The first wait, doubled at each further failure. */
  baseMs: number;
  /** The longest wait: nobody can lock an account out for good. */
  maxMs: number;
  /** Failures are forgotten after this long without one. */
  forgetMs: number;
}

// OWASP Authentication Cheat Sheet, "Login Throttling": exponential back-off, capped, reset on success.
export const ACCOUNT_RULE: ThrottleRule = { free: 5, baseMs: 1_000, maxMs: 5 * 60_000, forgetMs: 15 * 60_000 };
// Every local caller is one source (addressSource), so the address rule is looser: it only slows wide guessing.
export const ADDRESS_RULE: ThrottleRule = { free: 50, baseMs: 1_000, maxMs: 60_000, forgetMs: 15 * 60_000 };
// A device cookie's own failures: the account rule, for the one browser that holds the cookie (OWASP).
export const DEVICE_RULE: ThrottleRule = ACCOUNT_RULE;

/**
 * The source the address rule counts: any local process can connect from any address of 127.0.0.0/8 or
 * from ::1, so all of them (and their IPv4-mapped forms) are one source, "loopback". Elsewhere an IPv4
 * address is its own source and an IPv6 address counts by its /64, the block one machine is given.
 */
export function addressSource(ip: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? ip;
  if (/^127\.\d+\.\d+\.\d+$/.test(v4)) return 'loopback';
  if (!isIPv6(v4)) return v4;
  const groups = expandIPv6(v4);
  if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) return 'loopback';
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (a zone id dropped, an embedded IPv4 tail read). */
function expandIPv6(address: string): number[] {
  let text = address.split('%')[0]!.toLowerCase();
  const v4Tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4Tail !== null) {
    const [a, b, c, d] = v4Tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4Tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** Failed-login back-off keyed by any string (the normalized e-mail, the address). In memory. */
export class Throttle {
  private readonly entries = new Map<string, Entry>();
  /** Tries under way (begun, not yet ended), by key. */
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly rule: ThrottleRule,
    private readonly clock: Clock,
  ) {}

  /**
   * Milliseconds the key must still wait; 0 when it may try now. Tries under way count as failures until
   * they end: guesses sent at once cannot all pass the check before the first of them has failed.
   */
  waitMs(key: string): number {
    const entry = this.current(key);
    const waiting = entry === undefined ? 0 : Math.max(0, entry.blockedUntil - this.clock.now());
    const pending = this.pending.get(key) ?? 0;
    if (pending > 0 && (entry?.failures ?? 0) + pending > this.rule.free) return Math.max(waiting, 1_000);
    return waiting;
  }

  /** A try begins: until end(), it counts as a failure for waitMs. */
  begin(key: string): void {
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
  }

  end(key: string): void {
    const pending = (this.pending.get(key) ?? 1) - 1;
    if (pending > 0) this.pending.set(key, pending);
    else this.pending.delete(key);
  }

  /** A failure; true when it is the one that starts the key's back-off (the burst reached the throttle). */
  fail(key: string): boolean {
    const now = this.clock.now();
    const entry = this.current(key) ?? { failures: 0, blockedUntil: 0, lastFailure: now };
    entry.failures += 1;
    entry.lastFailure = now;
    this.block(entry);
    this.entries.set(key, entry);
    if (this.entries.size > 10_000) this.sweep(now);
    return entry.failures === this.rule.free + 1;
  }

  /** The failures counted for the key now (0 once forgotten). */
  failures(key: string): number {
    return this.current(key)?.failures ?? 0;
  }

  /** A success: the key starts afresh. */
  succeed(key: string): void {
    this.entries.delete(key);
  }

  private block(entry: Entry): void {
    const over = entry.failures - this.rule.free;
    entry.blockedUntil =
      over > 0 ? entry.lastFailure + Math.min(this.rule.maxMs, this.rule.baseMs * 2 ** (over - 1)) : 0;
  }

  private current(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined && this.clock.now() - entry.lastFailure > this.rule.forgetMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) {
      if (now - entry.lastFailure > this.rule.forgetMs) this.entries.delete(key);
    }
  }
}

/** Runs tasks of the same key one after another, in arrival order; tasks of other keys are not held up. */
export class Turns {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

/** Who a sign-in try comes from, as the rules count it. */
export interface SignInSource {
  /** The e-mail as typed; compared normalized. */
  email: string;
  /** The peer's address (request.ip). */
  ip: string;
  /** The nonce of a valid device cookie for the account (auth/device.ts), or null. */
  device: string | null;
}

/**
 * `throttled` on a wrong password: this failure started the back-off of the account (or of the browser's
 * cookie), once per burst: the audit trail records that, not each guess.
 */
export type SignInOutcome<T> =
  | { kind: 'signed-in'; value: T }
  | { kind: 'wrong'; throttled: boolean; failures: number }
  | { kind: 'wait'; ms: number };

/**
 * Sign-in throttling (OWASP Authentication Cheat Sheet, "Login Throttling", with device cookies). A caller
 * without a device cookie for the account meets the account's back-off and the address's; a caller with
 * one meets only its cookie's back-off, so that nobody else's guesses keep an account's owner out.
 * Tries meeting the same back-off are checked one after another (Turns); the address rule counts its
 * tries under way (Throttle.begin), so guesses sent at once meet the rules as guesses sent one by one.
 */
export class SignInThrottle {
  readonly account: Throttle;
  readonly address: Throttle;
  readonly device: Throttle;
  private readonly turns = new Turns();

  constructor(clock: Clock) {
    this.account = new Throttle(ACCOUNT_RULE, clock);
    this.address = new Throttle(ADDRESS_RULE, clock);
    this.device = new Throttle(DEVICE_RULE, clock);
  }

  /** One try: `verify` answers the signed-in value, or undefined for a wrong password. */
  attempt<T>(source: SignInSource, verify: () => Promise<T | undefined>): Promise<SignInOutcome<T>> {
    const [own, ...shared]: [Throttle, string][] =
      source.device !== null
        ? [[this.device, `device:${source.device}`]]
        : [
            [this.account, `account:${source.email.trim().toLowerCase()}`],
            [this.address, `address:${addressSource(source.ip)}`],
          ];
    const [ownThrottle, ownKey] = own!;
    return this.turns.run(ownKey, async (): Promise<SignInOutcome<T>> => {
      const waitMs = Math.max(ownThrottle.waitMs(ownKey), ...shared.map(([throttle, key]) => throttle.waitMs(key)));
      if (waitMs > 0) return { kind: 'wait', ms: waitMs };
      for (const [throttle, key] of shared) throttle.begin(key);
      try {
        const value = await verify();
        if (value === undefined) {
          const throttled = ownThrottle.fail(ownKey);
          for (const [throttle, key] of shared) throttle.fail(key);
          return { kind: 'wrong', throttled, failures: ownThrottle.failures(ownKey) };
        }
        // A success forgets the account's (or the cookie's) failures, never the address's: a guesser
        // could otherwise wipe its own count by signing in to an account of its own now and then.
        ownThrottle.succeed(ownKey);
        return { kind: 'signed-in', value };
      } finally {
        for (const [throttle, key] of shared) throttle.end(key);
      }
    });
  }
}
