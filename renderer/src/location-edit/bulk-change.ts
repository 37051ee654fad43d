import type { BulkEdit } from '../../../server/locations/schemas.js';
import type { LocationRow } from '../api/types.js';
import { formatCount, plural } from '../format.js';

/** A bulk edit's body without its ids: the server's own type. */
export type { BulkEdit };

/** How a bulk change treats each location's labels: adds to them, takes some off, or replaces them all. */
export type LabelsMode = 'add' | 'remove' | 'replace';

/** The fields a bulk change sets to one typed text, read by the server's rule for the field. */
const TEXT_ACTIONS = ['primary_category', 'website', 'hours', 'city', 'state'] as const;
export type TextAction = (typeof TEXT_ACTIONS)[number];

const isTextAction = (action: BulkAction): action is TextAction => (TEXT_ACTIONS as readonly string[]).includes(action);

/** A choice that sets one typed text on every location (TextAction). */
export function isTextChoice<Choice extends BulkChoice>(
  choice: Choice,
): choice is Extract<Choice, { action: TextAction }> {
  return isTextAction(choice.action);
}

/** What a bulk change does to every location chosen, as the dialog holds it: one shape per action. */
export type BulkChoice =
  // No status until one is picked: a default (Open) could change none of them, or not the way meant.
  | { action: 'status'; status: LocationRow['status'] | null }
  | { action: TextAction; text: string }
  // A country picked from the list (an import given the wrong one is mended so: a walk).
  | { action: 'country'; country: string | null }
  | { action: 'clear_category' }
  | { action: 'clear_labels' }
  | { action: 'labels'; mode: LabelsMode; text: string }
  | { action: 'delete' };

export type BulkAction = BulkChoice['action'];
export type EditChoice = Exclude<BulkChoice, { action: 'delete' }>;
export type LabelsChoice = Extract<BulkChoice, { action: 'labels' }>;

export const ACTIONS: readonly [BulkAction, string][] = [
  ['status', 'Set the status'],
  ['primary_category', 'Set the primary category'],
  ['clear_category', 'Clear the primary category'],
  ['website', 'Set the website'],
  ['hours', 'Set the opening hours'],
  ['labels', 'Change the labels'],
  ['clear_labels', 'Clear the labels'],
  ['country', 'Set the country'],
  ['state', 'Set the state or province'],
  ['city', 'Set the city'],
  ['delete', 'Delete them'],
];

/** The choice an action starts with: no status yet; for the labels, Add (a walk's "set" wiped them). */
export function startOf(action: BulkAction): BulkChoice {
  if (isTextAction(action)) return { action, text: '' };
  switch (action) {
    case 'status':
      return { action, status: null };
    case 'country':
      return { action, country: null };
    case 'labels':
      return { action, mode: 'add', text: '' };
    case 'clear_category':
    case 'clear_labels':
    case 'delete':
      return { action };
  }
}

/**
 * The labels typed, separated by commas as in a sheet's cell; the server reads each by the labels rule
 * (trimmed, blanks and repeats left out); here they are only counted, for the dialog's words.
 */
const labelsTyped = (text: string) => text.split(',');
const labelCount = (text: string) => labelsTyped(text).filter((label) => label.trim() !== '').length;

/** The request's body without its ids; null while it names no status, category or label yet. */
export function editOf(choice: EditChoice): BulkEdit | null {
  // A blank text sends nothing: clearing a category is an action of its own (a walk's blank default was one
  // click from clearing every location's category).
  if (isTextChoice(choice)) return choice.text.trim() === '' ? null : { set: { [choice.action]: choice.text } };
  switch (choice.action) {
    case 'status':
      return choice.status === null ? null : { set: { status: choice.status } };
    case 'country':
      return choice.country === null ? null : { set: { country: choice.country } };
    case 'clear_category':
      return { set: { primary_category: null } };
    case 'clear_labels':
      return { set: { labels: null } };
    case 'labels':
      // No label typed sends nothing, whatever the mode: clearing them all is an action of its own, as
      // for the category.
      if (labelCount(choice.text) === 0) return null;
      if (choice.mode === 'replace') return { set: { labels: choice.text } };
      return choice.mode === 'add'
        ? { add_labels: labelsTyped(choice.text) }
        : { remove_labels: labelsTyped(choice.text) };
  }
}

/**
 * What the locations a change leaves alone had, said after it, and before it of one or of many: "already
 * had them", "already has them", "already have them".
 */
function unchangedWords(choice: EditChoice): { had: string; has: string; have: string } {
  if (choice.action === 'clear_category' || choice.action === 'clear_labels')
    return { had: 'had none', has: 'has none', have: 'have none' };
  const add = choice.action !== 'labels' || choice.mode !== 'remove';
  const one = choice.action !== 'labels' || labelCount(choice.text) === 1;
  const it = one ? 'it' : 'them';
  if (add) return { had: `already had ${it}`, has: `already has ${it}`, have: `already have ${it}` };
  if (one) return { had: 'did not have it', has: 'does not have it', have: 'do not have it' };
  return { had: 'had none of them', has: 'has none of them', have: 'have none of them' };
}

/** The answer once done: "12 locations changed; 3 already had them." */
export function doneWords(choice: EditChoice, count: number, of: number): string {
  const rest = of - count;
  const unchanged = rest > 0 ? `; ${formatCount(rest)} ${unchangedWords(choice).had}` : '';
  return `${plural(count, 'location')} changed${unchanged}.`;
}

/** Before the change, from the server's dry run: "12 of the 15 locations will change; 3 already have them." */
export function previewWords(choice: EditChoice, count: number, of: number): string {
  if (of === 1) return count === 1 ? 'The location will change.' : 'The location will not change.';
  // "Both", not "all 2".
  const all = of === 2 ? 'Both locations' : `All ${plural(of, 'location')}`;
  if (count === of) return `${all} will change.`;
  const words = unchangedWords(choice);
  if (count === 0) return `None will change: ${of === 2 ? 'both' : `all ${plural(of, 'location')}`} ${words.have}.`;
  const rest = of - count;
  return `${formatCount(count)} of the ${plural(of, 'location')} will change; ${formatCount(rest)} ${rest === 1 ? words.has : words.have}.`;
}
