import type { Static } from '@sinclair/typebox';
import type { AuditEntry } from '../../../server/audit/schemas.js';

export type HistoryEntry = Static<typeof AuditEntry>;

/** The query of a client's history, read again after an undo. */
export const historyKey = (clientId: string) => ['history', clientId] as const;

const FIELD_WORDS: Record<string, string> = {
  store_code: 'store code',
  google_place_id: 'Google place id',
  primary_category: 'primary category',
  zip: 'postal code',
};

function who(entry: HistoryEntry): string {
  if (entry.actor.type === 'token') return `Script “${entry.actor.name ?? 'unnamed'}”`;
  return entry.actor.email ?? entry.actor.name ?? 'Someone';
}

const shown = (value: unknown) =>
  value === null || value === undefined || value === ''
    ? '—'
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

function changesInWords(entry: HistoryEntry): string {
  const changes = Object.entries(entry.changes ?? {});
  return changes
    .map(
      ([field, { from, to }]) =>
        `the ${FIELD_WORDS[field] ?? field.replace(/_/g, ' ')} from ${shown(from)} to ${shown(to)}`,
    )
    .join(', ');
}

function counts(summary: Record<string, unknown>, keys: readonly string[]): string {
  return keys
    .filter((key) => typeof summary[key] === 'number' && (summary[key] as number) > 0)
    .map((key) => `${summary[key] as number} ${key}`)
    .join(', ');
}

/** One entry as a sentence: "admin@… imported boston.csv: 180 created, 20 updated". */
export function entryInWords(entry: HistoryEntry): string {
  const summary = entry.summary ?? {};
  const target = entry.target.name ?? entry.target.id ?? '';
  switch (entry.action) {
    case 'locations.imported':
      return `${who(entry)} imported ${(summary.file_name as string | null) ?? 'a file'}: ${counts(summary, ['created', 'updated', 'unchanged', 'skipped']) || 'nothing changed'}`;
    case 'location.updated':
      return `${who(entry)} changed ${changesInWords(entry)} of ${target}`;
    case 'location.deleted':
      return `${who(entry)} deleted ${target}`;
    case 'locations.edited':
      return `${who(entry)} changed ${summary.count as number} locations at once (${Object.keys((summary.set as object) ?? {}).join(', ')})`;
    case 'locations.deleted':
      return `${who(entry)} deleted ${summary.count as number} locations`;
    case 'operation.undone':
      return `${who(entry)} undid a change: ${counts(summary, ['removed', 'restored', 'recreated', 'conflicts']) || 'nothing to undo'}`;
    case 'client.created':
      return `${who(entry)} created the client ${target}`;
    case 'client.updated':
      return `${who(entry)} changed ${changesInWords(entry)} of the client`;
    case 'client.deleted':
      return `${who(entry)} deleted the client ${target}`;
    default:
      return `${who(entry)}: ${entry.action} ${target}`;
  }
}

/** Operations a person can undo from the history. */
export const UNDOABLE = new Set([
  'locations.imported',
  'locations.edited',
  'locations.deleted',
  'location.deleted',
  'operation.undone',
]);
