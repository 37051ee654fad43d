import { MAX_LABELS } from './fields.js';

/** Labels a bulk edit adds to and takes off each location's own (README: "Editing locations and clients"). */
export interface LabelChange {
  add: readonly string[];
  remove: readonly string[];
}

/**
 * A location's labels after the change: its own in their order, then each added one it lacks, less the
 * removed; null when none is left. Labels compare as the labels rule keeps them apart: trimmed (the rule
 * has trimmed both sides), case and accents counting, since an import keeps "Bakery" and "bakery" as two.
 */
export function labelsAfter(own: readonly string[] | null, change: LabelChange): string[] | null {
  const removed = new Set(change.remove);
  const after = [...new Set([...(own ?? []), ...change.add])].filter((label) => !removed.has(label));
  return after.length === 0 ? null : after;
}

/**
 * The refusal of an edit that would leave locations with more than 10 labels: how many, and the first
 * of them by name with its count; worded to be read before the change (the dashboard's dry run) as after it.
 */
export function tooManyLabelsWords(overfull: readonly { name: string; labels: number }[]): string {
  const [first] = overfull;
  const many = overfull.length === 1 ? '1 location' : `${overfull.length} locations`;
  return (
    `${many} would have more than ${MAX_LABELS} labels (${first!.name} would have ${first!.labels}): ` +
    `take some off ${overfull.length === 1 ? 'it' : 'them'} first, or add fewer`
  );
}
