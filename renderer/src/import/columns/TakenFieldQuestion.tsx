import { useEffect, useRef } from 'react';
import { FIELD_LABELS, type ColumnMapping } from '../header-mapping.js';
import { shareField, swapFields, type Assignment } from './assign.js';
import { targetLabel } from './FieldPicker.js';

export type TakenField = Extract<Assignment, { kind: 'taken' }>;

/** The name a column goes by on this screen: its header, or its place when it has none. */
export function columnName(headers: readonly string[], column: number): string {
  const header = headers[column]?.trim();
  return header ? `“${header}”` : `column ${column + 1}`;
}

/**
 * The question when the field chosen for a column is already another column's: swap the two, share
 * it (address parts, joined), or cancel. Focus comes here, so a keyboard user hears it at once.
 */
export function TakenFieldQuestion({
  question,
  headers,
  mapping,
  onAnswer,
}: {
  question: TakenField;
  headers: readonly string[];
  mapping: ColumnMapping;
  onAnswer: (mapping: ColumnMapping | null) => void;
}) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), [question]);
  const field = FIELD_LABELS[question.target];
  const holders = question.holders.map((column) => columnName(headers, column)).join(' and ');
  const previous = targetLabel(mapping[question.column] ?? null);
  return (
    <div className="notice notice-warning taken-question" role="group" aria-labelledby="taken-question-text">
      <p id="taken-question-text">
        <strong>
          {holders} already feeds {field}.
        </strong>{' '}
        {columnName(headers, question.column)} can take it in its place
        {question.canShare ? ', or both can feed it, joined' : ''}.
      </p>
      <div className="taken-question-actions">
        <button ref={first} type="button" className="button" onClick={() => onAnswer(swapFields(mapping, question))}>
          Swap: {holders} becomes {previous}
        </button>
        {question.canShare && (
          <button type="button" className="button" onClick={() => onAnswer(shareField(mapping, question))}>
            Share: join both into {field}
          </button>
        )}
        <button type="button" className="button" onClick={() => onAnswer(null)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
