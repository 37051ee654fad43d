import { isDayHours, type ColumnMapping, type ColumnTarget, type ImportTarget } from '../header-mapping.js';

/**
 * What choosing a field for a column does to the mapping. A field another column already feeds is
 * never taken from it silently: the user is asked to swap the two columns, to share the field (the
 * address only, whose parts are joined), or to cancel.
 */
export type Assignment =
  | { kind: 'done'; mapping: ColumnMapping }
  | { kind: 'taken'; column: number; target: ImportTarget; holders: number[]; canShare: boolean };

/** Whether two targets cannot both be fed: the same field twice, or the whole week's hours beside one day's. */
function clashes(a: ImportTarget, b: ImportTarget): boolean {
  if (a === b) return true;
  return (a === 'hours' && isDayHours(b)) || (b === 'hours' && isDayHours(a));
}

/** The columns other than `column` whose target clashes with `target`. */
function holdersOf(mapping: ColumnMapping, column: number, target: ImportTarget): number[] {
  return mapping.flatMap((current, index) =>
    index !== column && current !== null && clashes(current, target) ? [index] : [],
  );
}

/** Points `column` at `target`, or asks first when another column holds that field. */
export function assignField(mapping: ColumnMapping, column: number, target: ColumnTarget): Assignment {
  if (target === null || mapping[column] === target) {
    return { kind: 'done', mapping: mapping.map((current, index) => (index === column ? target : current)) };
  }
  const holders = holdersOf(mapping, column, target);
  if (holders.length === 0) {
    return { kind: 'done', mapping: mapping.map((current, index) => (index === column ? target : current)) };
  }
  return { kind: 'taken', column, target, holders, canShare: target === 'address' };
}

/** The answer "swap": the column takes the field, and the columns that held it take the column's old one. */
export function swapFields(mapping: ColumnMapping, question: Extract<Assignment, { kind: 'taken' }>): ColumnMapping {
  const old = mapping[question.column] ?? null;
  // A day's hours cannot go to the column that holds the whole week's: it is left unmapped instead.
  const previous = old !== null && clashes(old, question.target) ? null : old;
  return mapping.map((current, index) => {
    if (index === question.column) return question.target;
    if (question.holders.includes(index)) return previous;
    return current;
  });
}

/** The answer "share": both columns feed the address, joined in file order. */
export function shareField(mapping: ColumnMapping, question: Extract<Assignment, { kind: 'taken' }>): ColumnMapping {
  return mapping.map((current, index) => (index === question.column ? question.target : current));
}
