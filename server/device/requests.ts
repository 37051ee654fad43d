import { randomBytes, randomInt } from 'node:crypto';
import type { Clock } from '../auth/tokens.js';
import type { Scope } from '../tokens/scopes.js';

/** RFC 8628 §3.2 and §6.1: how long a code lives, how often a script may poll, what a person reads. */
export const DEVICE_CODE_SECONDS = 10 * 60;
export const POLL_INTERVAL_SECONDS = 5;
// Base 20 without vowels (RFC 8628 §6.1): no words, nothing to confuse; 20^8 ≈ 2^34.6 codes.
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
/** Flood limits: the prompt shows at most this many requests, and so many may be made a minute. */
export const MAX_PENDING = 10;
export const MAX_PER_MINUTE = 20;
// An expired request is remembered this long after its end, so that its poll can say expired_token.
const FORGET_AFTER_MS = 10 * 60 * 1000;

/** Who approved a request: the token it gives is theirs. */
export interface Approver {
  userId: string;
}

export type DeviceState =
  { kind: 'pending' } | { kind: 'approved'; approver: Approver } | { kind: 'denied' } | { kind: 'used' };

export interface DeviceRequest {
  userCode: string;
  clientName: string;
  scopes: Scope[];
  clientId: string | null;
  createdAt: number;
  expiresAt: number;
  /** Seconds a poll must wait after the last; grows by 5 at each slow_down (RFC 8628 §3.5). */
  interval: number;
  lastPollAt: number | null;
  state: DeviceState;
}

export type PollOutcome =
  | { kind: 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'invalid_grant' }
  | { kind: 'approved'; request: DeviceRequest; approver: Approver };

export type NewDeviceRequest = Pick<DeviceRequest, 'clientName' | 'scopes' | 'clientId'>;

export type CreateOutcome =
  { kind: 'created'; deviceCode: string; request: DeviceRequest } | { kind: 'flooded'; retryAfterSeconds: number };

/**
 * The device authorization requests under way (RFC 8628), in memory: they live ten minutes, and a
 * restart simply makes the script ask again. The device code is known here only by the script; the user
 * code is what a person sees and approves.
 */
export class DeviceRequests {
  private readonly byDeviceCode = new Map<string, DeviceRequest>();
  private readonly madeAt: number[] = [];

  constructor(private readonly clock: Clock) {}

  create(asked: NewDeviceRequest): CreateOutcome {
    const now = this.clock.now();
    this.forgetOld(now);
    const pending = [...this.byDeviceCode.values()].filter((request) => this.isPending(request, now));
    if (pending.length >= MAX_PENDING) {
      const firstEnd = Math.min(...pending.map((request) => request.expiresAt));
      return { kind: 'flooded', retryAfterSeconds: Math.max(1, Math.ceil((firstEnd - now) / 1000)) };
    }
    if (this.madeAt.length >= MAX_PER_MINUTE) {
      return { kind: 'flooded', retryAfterSeconds: Math.max(1, Math.ceil((this.madeAt[0]! + 60_000 - now) / 1000)) };
    }
    this.madeAt.push(now);
    const deviceCode = randomBytes(32).toString('base64url');
    const request: DeviceRequest = {
      ...asked,
      userCode: this.freshUserCode(),
      createdAt: now,
      expiresAt: now + DEVICE_CODE_SECONDS * 1000,
      interval: POLL_INTERVAL_SECONDS,
      lastPollAt: null,
      state: { kind: 'pending' },
    };
    this.byDeviceCode.set(deviceCode, request);
    return { kind: 'created', deviceCode, request };
  }

  /** The requests still waiting for a person, oldest first. */
  pending(): DeviceRequest[] {
    const now = this.clock.now();
    return [...this.byDeviceCode.values()].filter((request) => this.isPending(request, now));
  }

  /** The pending request with this user code (any case, dash optional), or undefined. */
  pendingByUserCode(userCode: string): DeviceRequest | undefined {
    const wanted = normalizeUserCode(userCode);
    return this.pending().find((request) => request.userCode === wanted);
  }

  approve(request: DeviceRequest, approver: Approver): void {
    request.state = { kind: 'approved', approver };
  }

  deny(request: DeviceRequest): void {
    request.state = { kind: 'denied' };
  }

  /** The token endpoint's answer to a poll (RFC 8628 §3.5), before any token is made. */
  poll(deviceCode: string): PollOutcome {
    const now = this.clock.now();
    const request = this.byDeviceCode.get(deviceCode);
    if (request === undefined || request.state.kind === 'used') return { kind: 'invalid_grant' };
    if (request.expiresAt <= now) return { kind: 'expired_token' };
    const tooSoon = request.lastPollAt !== null && now - request.lastPollAt < request.interval * 1000;
    request.lastPollAt = now;
    switch (request.state.kind) {
      case 'denied':
        return { kind: 'access_denied' };
      case 'approved':
        return { kind: 'approved', request, approver: request.state.approver };
      default:
        if (!tooSoon) return { kind: 'authorization_pending' };
        request.interval += 5;
        return { kind: 'slow_down' };
    }
  }

  /** The code has given its token (or its approver can no longer give one): it never works again. */
  finish(request: DeviceRequest): void {
    request.state = { kind: 'used' };
  }

  private isPending(request: DeviceRequest, now: number): boolean {
    return request.state.kind === 'pending' && request.expiresAt > now;
  }

  private forgetOld(now: number): void {
    for (const [code, request] of this.byDeviceCode) {
      if (request.expiresAt + FORGET_AFTER_MS <= now) this.byDeviceCode.delete(code);
    }
    while (this.madeAt.length > 0 && this.madeAt[0]! + 60_000 <= now) this.madeAt.shift();
  }

  private freshUserCode(): string {
    const taken = new Set([...this.byDeviceCode.values()].map((request) => request.userCode));
    for (;;) {
      const letters = Array.from({ length: 8 }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]);
      const code = `${letters.slice(0, 4).join('')}-${letters.slice(4).join('')}`;
      if (!taken.has(code)) return code;
    }
  }
}

/** "wdjbmjht", " WDJB-MJHT " and "wdjb mjht" all name WDJB-MJHT. */
export function normalizeUserCode(text: string): string {
  const letters = text.toUpperCase().replace(/[^A-Z]/g, '');
  return letters.length === 8 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : letters;
}
