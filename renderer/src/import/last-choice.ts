import type { ImportChoice } from './protocol.js';

/**
 * The mode and blank-cell rule of a client's last import, kept on this computer (localStorage): an agency
 * re-imports a client's updated sheet each month, and chose "update matching locations" the month before
 * (found by a walk: every re-import started again at "add new locations only").
 */
const keyOf = (clientId: string) => `agency-desk.import-choice.${clientId}`;
const MODES: readonly string[] = ['create', 'upsert', 'update'];
const BLANKS: readonly string[] = ['keep', 'clear'];

/** The choice of the client's last import, or null (none, or storage unreadable). */
export function rememberedChoice(clientId: string): ImportChoice | null {
  try {
    const stored = JSON.parse(localStorage.getItem(keyOf(clientId)) ?? 'null') as Partial<ImportChoice> | null;
    if (stored === null || !MODES.includes(stored.mode ?? '') || !BLANKS.includes(stored.blanks ?? '')) return null;
    return { mode: stored.mode!, blanks: stored.blanks! };
  } catch {
    return null;
  }
}

/** Keeps the choice an import of the client was made with. */
export function rememberChoice(clientId: string, choice: ImportChoice): void {
  try {
    localStorage.setItem(keyOf(clientId), JSON.stringify({ mode: choice.mode, blanks: choice.blanks }));
  } catch {
    // Storage full or refused: the next import starts from the default, as before.
  }
}
