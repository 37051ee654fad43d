import type { Static } from '@sinclair/typebox';
import type { AuditEntry, UndoResponse } from '../../../server/audit/schemas.js';
import { fieldInWords } from '../../../server/locations/field-words.js';
import type { Hours } from '../../../server/locations/hours.js';
import { hoursChange, weekWords } from '../hours-words.js';
import { formatCount, plural } from '../format.js';
import { phoneText } from '../phone-text.js';

export type HistoryEntry = Static<typeof AuditEntry>;

/** The query of a client's history, read again after an undo. */
export const historyKey = (clientId: string) => ['history', clientId] as const;

function who(entry: HistoryEntry): string {
  if (entry.actor.type === 'token') return `Script “${entry.actor.name ?? 'unnamed'}”`;
  // "the command line (maria)": the machine's own account, first in the sentence.
  if (entry.actor.type === 'system') return (entry.actor.name ?? 'Agency Desk').replace(/^./, (c) => c.toUpperCase());
  return entry.actor.email ?? entry.actor.name ?? 'Someone';
}

/**
 * A field's value as the dashboard writes it: hours and labels as text, a status in words, a phone grouped
 * (once its library has loaded: the components that show entries load it, usePhoneText).
 */
function shown(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'hours' && typeof value === 'object') return weekWords(value as Hours);
  if (Array.isArray(value)) return value.join(', ');
  if (field === 'status') return String(value).replace(/_/g, ' ');
  if (field === 'phone' && typeof value === 'string') return phoneText(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

type Change = { from: unknown; to: unknown };

/** "from +1 617 555 0100 to +1 617 555 0199"; hours by the days that changed ("from Sat 10:00–14:00 to Sat closed"). */
function fromTo(field: string, { from, to }: Change): string {
  if (field === 'hours' && from != null && to != null) {
    const days = hoursChange(from as Hours, to as Hours);
    return `from ${days.from} to ${days.to}`;
  }
  return `from ${shown(field, from)} to ${shown(field, to)}`;
}

function changesInWords(entry: HistoryEntry): string {
  const changes = Object.entries(entry.changes ?? {});
  return changes
    .map(([field, change]) =>
      // A password is never shown, not even hidden: only that it changed.
      field === 'password' ? 'the password' : `the ${fieldInWords(field)} ${fromTo(field, change)}`,
    )
    .join(', ');
}

function counts(summary: Record<string, unknown>, keys: readonly string[]): string {
  return (
    keys
      .filter((key) => typeof summary[key] === 'number' && (summary[key] as number) > 0)
      // "conflicts" is the one noun among them: "1 conflict" (a walk read "1 conflicts").
      .map((key) =>
        key === 'conflicts'
          ? plural(summary[key] as number, 'conflict')
          : `${formatCount(summary[key] as number)} ${key}`,
      )
      .join(', ')
  );
}

type Words = (
  entry: HistoryEntry,
  summary: Record<string, unknown>,
  target: string,
  history: readonly HistoryEntry[],
) => string;

/** What an undo reverted, by the operation's kind, when its own entry is not at hand. */
const OPERATION_WORDS: Record<string, string> = {
  import: 'an import',
  bulk_edit: 'a change to many locations',
  bulk_delete: 'a deletion of many locations',
  undo: 'an undo',
};

/** For an undo's entry, the entry of the operation it reverted, when the history at hand holds it. */
export function undoneIn(entry: HistoryEntry, history: readonly HistoryEntry[]): HistoryEntry | undefined {
  if (entry.action !== 'operation.undone' || entry.target.id === null) return undefined;
  return history.find((other) => other.operation_id === entry.target.id);
}

/** What an undo reverted: the reverted entry's own words when it is at hand ("imported boston.csv: …"). */
function undoneWords(entry: HistoryEntry, history: readonly HistoryEntry[]): string {
  const undone = undoneIn(entry, history);
  if (undone !== undefined) return `“${sentenceOf(undone, history)}”`;
  return OPERATION_WORDS[entry.target.name ?? ''] ?? 'a change';
}

/**
 * An undo, or the undo of an undo, which puts back what the first undo reverted: "redid “set the status …”"
 * (a walk read `undid "undid a change to many locations: 4 restored"`).
 */
function undoWords(entry: HistoryEntry, summary: Record<string, unknown>, history: readonly HistoryEntry[]): string {
  const done = counts(summary, ['removed', 'restored', 'recreated', 'conflicts']) || 'nothing to undo';
  if (entry.target.name !== 'undo') return `undid ${undoneWords(entry, history)}: ${done}`;
  const undo = undoneIn(entry, history);
  return `redid ${undo === undefined ? 'an undone change' : undoneWords(undo, history)}: ${done}`;
}

/**
 * A change to one record, its subject first: "changed the phone of Boston Downtown from … to …", and
 * for several fields "changed the client Bluebird: the name from …, the industry from … to …" (the
 * subject no longer trails a long list).
 */
const changed =
  (kind: string): Words =>
  (entry, _summary, target) => {
    const subject = `${kind}${target}`;
    const changes = Object.entries(entry.changes ?? {});
    if (changes.length !== 1) return `changed ${subject}: ${changesInWords(entry)}`;
    const [[field, change]] = changes as [[string, Change]];
    if (field === 'password') return `changed the password of ${subject}`;
    return `changed the ${fieldInWords(field)} of ${subject} ${fromTo(field, change)}`;
  };

/** "a", "a and b", "a, b and c". */
const listWords = (parts: readonly string[]) =>
  parts.length < 2 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;

/** " (Pike Place, Mission and 3 more)": the locations a bulk entry names, when it names them. */
function namedWords(summary: Record<string, unknown>, count: number): string {
  const names = (summary.names as string[] | undefined) ?? [];
  if (names.length === 0) return '';
  const rest = count - names.length;
  return ` (${listWords(rest > 0 ? [...names, `${formatCount(rest)} more`] : names)})`;
}

/** "added the label summer", "removed the labels flagship, café". */
const labelsWords = (verb: string, labels: readonly string[]) =>
  `${verb} the ${labels.length === 1 ? 'label' : 'labels'} ${labels.join(', ')}`;

/**
 * "the status to temporarily closed; the labels to wifi, pnw": what a bulk change set, or '' when it set
 * nothing; fields apart by semicolons, as a value may hold commas (a walk could not read "the labels to
 * pnw, flagship, Pike Place, the hours to …").
 */
const setWords = (set: unknown) =>
  Object.entries((set as Record<string, unknown> | undefined) ?? {})
    .map(([field, value]) => `the ${fieldInWords(field)} to ${shown(field, value)}`)
    .join('; ');

/**
 * A bulk change: "set the status to temporarily closed on 3 locations at once", "added the labels x, y
 * to 15 locations", "removed the label café from 2 locations", or what it set, added and removed at once.
 */
function editedWords(summary: Record<string, unknown>): string {
  const set = setWords(summary.set);
  const add = (summary.add_labels as string[] | undefined) ?? [];
  const remove = (summary.remove_labels as string[] | undefined) ?? [];
  const what = listWords([
    ...(set ? [`set ${set}`] : []),
    ...(add.length > 0 ? [labelsWords('added', add)] : []),
    ...(remove.length > 0 ? [labelsWords('removed', remove)] : []),
  ]);
  const them = add.length + remove.length === 1 ? 'it' : 'them';
  // Labels added or removed alone read as done to the locations; anything else as set on them.
  const [to, unchanged] =
    set || (add.length > 0 && remove.length > 0)
      ? ['on', 'which had it already']
      : add.length > 0
        ? ['to', `which had ${them} already`]
        : ['from', `none of which had ${them}`];
  const count = summary.count as number;
  // A bulk change whose locations all had the values already changed nothing: it says so.
  if (count === 0) return `${what} ${to} ${plural(summary.of as number, 'location')}, ${unchanged}: nothing changed`;
  return `${what} ${to} ${plural(count, 'location')}${to === 'on' ? ' at once' : ''}${namedWords(summary, count)}`;
}

/** What each action says, after who did it. */
const SENTENCES: Record<string, Words> = {
  'locations.imported': (_entry, summary) =>
    `imported ${(summary.file_name as string | null) ?? 'a file'}: ${counts(summary, ['created', 'updated', 'unchanged', 'skipped']) || 'nothing changed'}`,
  'location.updated': changed(''),
  'location.deleted': (_entry, _summary, target) => `deleted ${target}`,
  'locations.edited': (_entry, summary) => editedWords(summary),
  'locations.deleted': (_entry, summary) =>
    `deleted ${plural(summary.count as number, 'location')}${namedWords(summary, summary.count as number)}`,
  // An upgrade's new health or matching rules, applied at start (server/locations/rescore.ts).
  'locations.rescored': (_entry, summary) =>
    summary.count === 0
      ? 'checked every location under its updated rules: no score changed'
      : `scored ${plural(summary.count as number, 'location')} again under its updated rules`,
  'operation.undone': (entry, summary, _target, history) => undoWords(entry, summary, history),
  'client.created': (_entry, _summary, target) => `created the client ${target}`,
  'client.updated': changed('the client '),
  'client.deleted': (_entry, _summary, target) => `deleted the client ${target}`,
  'user.created': (_entry, _summary, target) => `added the user ${target}`,
  'user.updated': changed('the user '),
  'user.deleted': (_entry, _summary, target) => `removed the user ${target}`,
  'user.password_changed': () => 'changed their password',
  'user.signed_in': () => 'signed in',
  'user.sign_in_throttled': (_entry, summary, target) =>
    `held back sign-ins to ${target} after ${summary.failures as number} wrong passwords from ${summary.address as string}`,
  'token.created': (_entry, _summary, target) => `made the API token ${target}`,
  'token.revoked': (_entry, _summary, target) => `revoked the API token ${target}`,
  'mapping.created': (_entry, _summary, target) => `saved the column mapping “${target}”`,
  'mapping.updated': (_entry, _summary, target) => `changed the column mapping “${target}”`,
  'mapping.deleted': (_entry, _summary, target) => `deleted the column mapping “${target}”`,
  // Agency Desk itself, as a restore's last step (server/backups/after-restore.ts).
  'database.restored': (_entry, summary, target) =>
    `restored the data from the backup ${target} (${plural(summary.clients as number, 'client')}, ${plural(summary.locations as number, 'location')}); what was done since is in the backup made before it`,
};

/** What an entry says after who did it: "imported boston.csv: 180 created, 20 updated". */
function sentenceOf(entry: HistoryEntry, history: readonly HistoryEntry[]): string {
  const target = entry.target.name ?? entry.target.id ?? '';
  const words = SENTENCES[entry.action];
  return words ? words(entry, entry.summary ?? {}, target, history) : `${entry.action} ${target}`;
}

/**
 * One entry as a sentence: "admin@… imported boston.csv: 180 created, 20 updated". An undo names what
 * it reverted when `history`, the entries at hand, holds that operation's entry.
 */
export function entryInWords(entry: HistoryEntry, history: readonly HistoryEntry[] = []): string {
  const sentence = sentenceOf(entry, history);
  return SENTENCES[entry.action] ? `${who(entry)} ${sentence}` : `${who(entry)}: ${sentence}`;
}

/** Operations a person can undo from the history. */
const UNDOABLE = new Set([
  'locations.imported',
  'locations.edited',
  'locations.deleted',
  'location.deleted',
  'operation.undone',
]);

/**
 * Whether the history offers Undo for the entry: an operation that changed something, not undone yet. A
 * bulk change of none, or an import that created and updated nothing (every row unchanged or skipped),
 * has nothing to undo.
 */
export function undoable(entry: HistoryEntry): boolean {
  if (entry.operation_id === null || entry.undone_by !== null || !UNDOABLE.has(entry.action)) return false;
  if (entry.action === 'locations.edited') return entry.summary?.count !== 0;
  if (entry.action === 'locations.imported') return entry.summary?.created !== 0 || entry.summary?.updated !== 0;
  return true;
}

/**
 * What an undo did, in a few words, the same after the history's Undo and a bulk change's: "Undone: 2
 * locations put back", "3 locations brought back; 1 left as it is" (the history's said only "Undone.").
 */
export function undoResultWords(undo: Static<typeof UndoResponse>): string {
  const parts = [
    undo.restored > 0 && `${plural(undo.restored, 'location')} put back`,
    undo.recreated > 0 && `${plural(undo.recreated, 'location')} brought back`,
    undo.removed > 0 && `${plural(undo.removed, 'location')} removed`,
    undo.conflicts.length > 0 && `${plural(undo.conflicts.length, 'location')} changed since left as it is`,
  ].filter(Boolean);
  return parts.length > 0 ? `Undone: ${parts.join('; ')}.` : 'Nothing was left to undo.';
}
