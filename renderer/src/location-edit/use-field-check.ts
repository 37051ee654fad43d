import { useCallback, useRef } from 'react';
import { ApiError } from '../api/http.js';
import { checkLocationChange, type LocationChange } from '../api/location-queries.js';
import { fieldErrors, type EditableField } from './draft.js';

export type FieldErrors = Partial<Record<EditableField, string>>;

/** A refused change's words by field: a 400's details, a 409's store code. */
export function refusalsOf(error: ApiError): FieldErrors {
  const byField = fieldErrors(error.details);
  if (error.status === 409) byField.store_code = error.message;
  return byField;
}

/**
 * The fields of the change the server refuses, undefined when it could not say (the server is away, the
 * session ended: saving will tell). A field's 400 comes before the store code's 409, which needs a
 * change that is otherwise valid: the fields refused are left out and the rest asked again, once.
 */
async function refusedFields(id: string, change: LocationChange): Promise<FieldErrors | undefined> {
  const found: FieldErrors = {};
  let asked: Record<string, unknown> = change;
  for (let round = 0; round < 2 && Object.keys(asked).length > 0; round++) {
    try {
      await checkLocationChange(id, asked as LocationChange);
      return found;
    } catch (error) {
      if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return undefined;
      const refused = refusalsOf(error);
      Object.assign(found, refused);
      asked = Object.fromEntries(Object.entries(asked).filter(([field]) => !(field in refused)));
      if (error.status === 409) return found;
    }
  }
  return found;
}

/**
 * The editor's change checked by the server as the person leaves each field (the import's rules live
 * there alone: the dashboard asks, it does not restate them), writing nothing. Only the fields left so
 * far are judged: one still being typed in is not. The newest check wins over one answered late, and
 * typing drops the checks under way.
 */
export function useFieldCheck(id: string, onErrors: (update: (current: FieldErrors) => FieldErrors) => void) {
  const left = useRef(new Set<EditableField>());
  const latest = useRef(0);
  // A letter typed makes every check under way stale: its answer is of values no longer there.
  const typed = useCallback(() => void latest.current++, []);
  const check = useCallback(
    async (field: EditableField, change: LocationChange) => {
      left.current.add(field);
      const run = ++latest.current;
      const found = await refusedFields(id, change);
      if (found === undefined || run !== latest.current) return;
      onErrors((current) => {
        const next = { ...current };
        for (const judged of left.current) next[judged] = found[judged];
        return next;
      });
    },
    [id, onErrors],
  );
  return { check, typed };
}
