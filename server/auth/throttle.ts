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
// Every local caller shares 127.0.0.1, so the address rule is looser: it only slows wide guessing.
export const ADDRESS_RULE: ThrottleRule = { free: 50, baseMs: 1_000, maxMs: 60_000, forgetMs: 15 * 60_000 };

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

  fail(key: string): void {
    const now = this.clock.now();
    const entry = this.current(key) ?? { failures: 0, blockedUntil: 0, lastFailure: now };
    entry.failures += 1;
    entry.lastFailure = now;
    this.block(entry);
    this.entries.set(key, entry);
    if (this.entries.size > 10_000) this.sweep(now);
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
