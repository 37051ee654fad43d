import type { RunningServer } from '../server/start.js';

/**
 * The desktop shell's life, written down (issue 11 §3): each state says what the app can do in it, and
 * TRANSITIONS says where it may go next. The server exists only while `serving`; the database is
 * touched by the shell alone while `rekeying` or `restoring` (the server is stopped for that moment).
 */
export type DesktopState =
  /** No key yet: the app is reading the keychain, or the unlock window waits for the passphrase. */
  | { name: 'locked' }
  /** A key is being tried: the server starts with it (it opens the database, or says the key is wrong). */
  | { name: 'unlocking' }
  | { name: 'serving'; server: RunningServer }
  /** The server is stopped while the database is re-encrypted under a passphrase. */
  | { name: 'rekeying'; port: number }
  /** The server is stopped while a backup replaces the database. */
  | { name: 'restoring'; port: number }
  /** Requests finish, the database closes, the discovery file goes. */
  | { name: 'quitting' }
  | { name: 'quit' };

export type StateName = DesktopState['name'];

export const TRANSITIONS: Readonly<Record<StateName, readonly StateName[]>> = {
  locked: ['unlocking', 'quitting'],
  // A wrong key goes back to locked (the unlock window asks again).
  unlocking: ['serving', 'locked', 'quitting'],
  serving: ['rekeying', 'restoring', 'quitting'],
  // Both end serving again, under the new key or the old one when they fail.
  rekeying: ['serving', 'quitting'],
  restoring: ['serving', 'quitting'],
  quitting: ['quit'],
  quit: [],
};

export class IllegalTransitionError extends Error {
  override name = 'IllegalTransitionError';
}

/** The current state, and every state it went through (for the tests and a crash report). */
export class Lifecycle {
  private current: DesktopState = { name: 'locked' };
  readonly history: StateName[] = ['locked'];

  get state(): DesktopState {
    return this.current;
  }

  /** The running server, only while serving. */
  get server(): RunningServer | null {
    return this.current.name === 'serving' ? this.current.server : null;
  }

  is(...names: StateName[]): boolean {
    return names.includes(this.current.name);
  }

  to(next: DesktopState): void {
    if (!TRANSITIONS[this.current.name].includes(next.name)) {
      throw new IllegalTransitionError(`the desktop app cannot go from ${this.current.name} to ${next.name}`);
    }
    this.current = next;
    this.history.push(next.name);
  }
}
