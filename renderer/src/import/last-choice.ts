import { authorized } from '../api/session.js';
import type { ImportChoice } from './protocol.js';

/**
 * The mode and blank-cell rule of a client's last import: an agency re-imports a client's updated sheet
 * each month, and chose "update matching locations" the month before (found by a walk: every re-import
 * started again at "add new locations only"). Kept on this computer (localStorage), for the dialog's first
 * moment, and read from the client's history, where any computer's or colleague's import left them.
 */
const keyOf = (clientId: string) => `agency-desk.import-choice.${clientId}`;
const MODES: readonly string[] = ['create', 'upsert', 'update'];
const BLANKS: readonly string[] = ['keep', 'clear'];

/** A choice as stored or summed up; null when it is none. */
function choiceOf(stored: Partial<ImportChoice> | null): ImportChoice | null {
  if (stored === null || !MODES.includes(stored.mode ?? '') || !BLANKS.includes(stored.blanks ?? '')) return null;
  return { mode: stored.mode!, blanks: stored.blanks! };
}

/** The choice of the client's last import on this computer, or null (none, or storage unreadable). */
export function rememberedChoice(clientId: string): ImportChoice | null {
  try {
    return choiceOf(JSON.parse(localStorage.getItem(keyOf(clientId)) ?? 'null') as Partial<ImportChoice> | null);
  } catch {
    return null;
  }
}

/**
 * The choice of the client's last import, made on any computer: its entry in the history (summary.mode and
 * summary.blanks; an entry from before blanks were kept kept the cells, the default). Null when the client
 * has none.
 */
export async function lastImportChoice(clientId: string, signal: AbortSignal): Promise<ImportChoice | null> {
  const query = new URLSearchParams({ clientId, action: 'locations.imported', limit: '1' });
  const { data } = await authorized<{ entries: { summary: Partial<ImportChoice> | null }[] }>(`/api/audit?${query}`, {
    signal,
  });
  const summary = data.entries[0]?.summary ?? null;
  return summary === null ? null : choiceOf({ blanks: 'keep', ...summary });
}

/** Keeps the choice an import of the client was made with. */
export function rememberChoice(clientId: string, choice: ImportChoice): void {
  try {
    localStorage.setItem(keyOf(clientId), JSON.stringify({ mode: choice.mode, blanks: choice.blanks }));
  } catch {
    // Storage full or refused: the next import starts from the default, as before.
  }
}
