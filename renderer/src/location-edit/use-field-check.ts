import { useCallback, useRef } from 'react';
import { ApiError } from '../api/http.js';
import { checkLocationChange, type LocationChange, type LocationChangeAnswer } from '../api/location-queries.js';
import { fieldErrors, type EditableField } from './draft.js';

export type FieldErrors = Partial<Record<EditableField, string>>;

/** A refused change's words by field: a 400's details, a 409's store code. */
export function refusalsOf(error: ApiError): FieldErrors {
  const byField = fieldErrors(error.details);
  if (error.status === 409) byField.store_code = error.message;
  return byField;
}

/** The words of a phone's extension the server took but did not keep (its phone_extension). */
export function extensionWords(extension: string): string {
  return `The extension ${extension} is not kept: a listing's phone is one number, with no extension.`;
}

/** What the server says of a change it takes but cannot keep whole: a phone's extension, under the phone. */
function notesOf(answer: LocationChangeAnswer): FieldErrors {
  const extension = answer.phone_extension;
  return extension === undefined ? {} : { phone: extensionWords(extension) };
}

/**
 * The fields of the change the server refuses, undefined when it could not say (the server is away, the
 * session ended: saving will tell), with its notes on those it takes (notesOf). A field's 400 comes
 * before the store code's 409, which needs a change that is otherwise valid: the fields refused are left
 * out and the rest asked again, once.
 */
async function refusedFields(
  id: string,
  change: LocationChange,
): Promise<{ found: FieldErrors; notes: FieldErrors } | undefined> {
  const found: FieldErrors = {};
  let asked: Record<string, unknown> = change;
  for (let round = 0; round < 2 && Object.keys(asked).length > 0; round++) {
    try {
      return { found, notes: notesOf(await checkLocationChange(id, asked as LocationChange)) };
    } catch (error) {
      if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return undefined;
      const refused = refusalsOf(error);
      Object.assign(found, refused);
      // A refusal of no field of the change (the body as a whole) would only be asked again: done.
      const rest = Object.entries(asked).filter(([field]) => !(field in refused));
      if (error.status === 409 || rest.length === Object.keys(asked).length) return { found, notes: {} };
      asked = Object.fromEntries(rest);
    }
  }
  return { found, notes: {} };
}

/**
 * The editor's change checked by the server as the person leaves each field (the import's rules live
 * there alone: the dashboard asks, it does not restate them), writing nothing. Only the fields left so
 * far are judged: one still being typed in is not, nor one typed in since the check began (its answer is
 * of a value no longer there; the other fields' words still come: found by a review, typing anywhere
 * dropped them). The newest check wins over one answered late. A save's refusal follows the same rule
 * (`began`, then `since`): CI typed the phone right while the save was on its way, and its late refusal
 * put the old value's words back under the new value.
 */
export function useFieldCheck(
  id: string,
  onErrors: (update: (current: FieldErrors) => FieldErrors) => void,
  onNotes: (update: (current: FieldErrors) => FieldErrors) => void,
) {
  const left = useRef(new Set<EditableField>());
  // One clock for checks and letters: a field typed in after a check began is newer than its answer.
  const clock = useRef(0);
  const latest = useRef(0);
  const typedAt = useRef(new Map<EditableField, number>());
  const typed = useCallback((field: EditableField) => void typedAt.current.set(field, ++clock.current), []);
  // Words of the values as they were at `run`: a field typed in since keeps what it has now.
  const since = useCallback(
    (run: number, words: FieldErrors, fields: Iterable<EditableField>) => (current: FieldErrors) => {
      const next = { ...current };
      for (const judged of fields) if ((typedAt.current.get(judged) ?? 0) < run) next[judged] = words[judged];
      return next;
    },
    [],
  );
  // A save's moment: its refusal is of the values sent, and a field typed in meanwhile keeps its own.
  const began = useCallback(() => ++clock.current, []);
  // Whether the person typed anywhere since `run`: a late refusal then leaves the focus where they type.
  const typedSince = useCallback((run: number) => [...typedAt.current.values()].some((at) => at > run), []);
  const check = useCallback(
    async (field: EditableField, change: LocationChange) => {
      left.current.add(field);
      const run = ++clock.current;
      latest.current = run;
      const answer = await refusedFields(id, change);
      if (answer === undefined || run !== latest.current) return;
      // A field typed in since the check began keeps what it has: the answer is of a value no longer there.
      onNotes(since(run, answer.notes, left.current));
      onErrors(since(run, answer.found, left.current));
    },
    [id, onErrors, onNotes, since],
  );
  return { check, typed, since, began, typedSince };
}
