import { useState } from 'react';
import type { TSchema } from '@sinclair/typebox';
import { fieldProblems, hasProblems, serverFieldProblems } from './field-words.js';

export interface FieldCheck<Field extends string> {
  /** What to show under a field: the browser's check once the user tried to send, else the server's. */
  problemOf(field: Field): string | null;
  /** Marks the form as sent; true when the body passes the server's schema and may go. */
  check(): boolean;
  /** The server's error named a field of the form: it shows there, not above. */
  shownAtFields: boolean;
}

/** A form checked against the server's TypeBox schema before sending, its problems shown by field. */
export function useFieldCheck<Field extends string>(
  schema: TSchema,
  body: unknown,
  serverError: unknown,
  fields: readonly Field[],
  ownProblems: Partial<Record<Field, string | null>> = {},
): FieldCheck<Field> {
  const [tried, setTried] = useState(false);
  const problems = { ...fieldProblems<Field>(schema, body) };
  for (const field of fields) problems[field] = ownProblems[field] ?? problems[field];
  const fromServer = serverFieldProblems(serverError, fields);
  return {
    problemOf: (field) => (tried ? problems[field] : undefined) ?? fromServer[field] ?? null,
    check: () => {
      setTried(true);
      return !hasProblems(problems);
    },
    shownAtFields: hasProblems(fromServer),
  };
}
