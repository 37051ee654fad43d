import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { ApiError } from '../api/http.js';
import { NewPassword } from '../../../server/auth/schemas.js';
import { controlCharacterWords } from '../../../server/http/control-characters.js';
import { PLAIN_TEXT } from '../../../server/http/schemas.js';

/** A form's problems, one sentence per field, in the words a person reads next to that field. */
export type FieldProblems<Field extends string> = Partial<Record<Field, string>>;

/** A new password's rule as the server's schema documents it: "At least 8 characters". */
export const PASSWORD_RULE = NewPassword.description ?? `At least ${NewPassword.minLength} characters`;

const EMAIL = 'Enter an e-mail address, like name@agency.com.';

function lengthWords(min: number | undefined, max: number | undefined, length: number): string {
  if (min !== undefined && length < min) return min === 1 ? 'Fill this in.' : `Use at least ${min} characters.`;
  return `Use at most ${max ?? 0} characters; this has ${length}.`;
}

function formatWords(format: string, value: string): string {
  if (format === 'email') return EMAIL;
  // A pasted name may carry one; the server's rule, said before sending.
  if (format === PLAIN_TEXT) return `This ${controlCharacterWords(value) ?? 'holds a control character'}: remove it.`;
  return 'Choose one of the options.';
}

/** One of TypeBox's errors, for a person. The numbers come from the schema, never from here. */
function wordsOf(error: ValueError): string {
  const { schema, value } = error;
  switch (error.type) {
    case ValueErrorType.StringMinLength:
    case ValueErrorType.StringMaxLength:
      return lengthWords(schema.minLength as number, schema.maxLength as number, String(value).length);
    case ValueErrorType.StringFormat:
      return formatWords(schema.format as string, String(value));
    case ValueErrorType.ObjectRequiredProperty:
      return 'Fill this in.';
    case ValueErrorType.ArrayMinItems:
      return 'Choose at least one.';
    case ValueErrorType.Union: {
      // A nullable text (Type.Union([String, Null])): the text member says what is wrong with the text.
      const text = (schema.anyOf as TSchema[] | undefined)?.find((member) => member.type === 'string');
      const inner = text ? Value.Errors(text, value).First() : undefined;
      return inner ? wordsOf(inner) : 'Choose one of the options.';
    }
    default:
      return 'Check this value.';
  }
}

/** Checks a request body against the server's own schema in the browser: the first problem of each field. */
export function fieldProblems<Field extends string>(schema: TSchema, body: unknown): FieldProblems<Field> {
  const problems: Record<string, string> = {};
  for (const error of Value.Errors(schema, body)) {
    const field = error.path.split('/')[1] ?? '';
    problems[field] ??= wordsOf(error);
  }
  return problems as FieldProblems<Field>;
}

// The server's validator (Ajv) words its details for developers; the same facts for a person.
const SERVER_WORDS: [RegExp, (match: RegExpExecArray) => string][] = [
  [/^must match format "email"$/, () => EMAIL],
  [/^must NOT have fewer than (\d+) characters$/, (m) => lengthWords(Number(m[1]), undefined, 0)],
  [/^must NOT have more than (\d+) characters$/, (m) => `Use at most ${m[1]} characters.`],
  [/^is required$/, () => 'Fill this in.'],
];

function serverWords(message: string): string {
  for (const [pattern, words] of SERVER_WORDS) {
    const match = pattern.exec(message);
    if (match) return words(match);
  }
  return message;
}

/** A server error's details that name one of the form's fields, worded for a person, by field. */
export function serverFieldProblems<Field extends string>(
  error: unknown,
  fields: readonly Field[],
): FieldProblems<Field> {
  const problems: FieldProblems<Field> = {};
  if (!(error instanceof ApiError)) return problems;
  for (const detail of error.details) {
    const field = detail.path.replace(/^\/body/, '').split('/')[1] as Field;
    if (fields.includes(field)) problems[field] ??= serverWords(detail.message);
  }
  return problems;
}

/** Whether a form has anything left to fix. */
export const hasProblems = (problems: FieldProblems<string>): boolean =>
  Object.values(problems).some((problem) => problem !== undefined);
