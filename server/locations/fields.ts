import { domainToUnicode } from 'node:url';
import {
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberWithError,
  ParseError,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js';
import { isPlaceholder, NO_PLACEHOLDERS } from '../imports/placeholders.js';
import { hasLoneSurrogate, LONE_SURROGATE_WORDS, textOrNull } from '../http/body.js';
import { controlCharacterWords } from '../http/control-characters.js';
import { countryCode } from './country.js';
import { zipFitsCountry } from './health.js';
import { websiteUrl, WEBSITE_WORDS } from './website.js';
import {
  BY_APPOINTMENT,
  HOURS_FORMS,
  HoursError,
  oneDayIntervals,
  orderedHours,
  refuseOverlaps,
  weekHours,
  DAYS,
  type Day,
  type Hours,
} from './hours.js';
import { NEEDS_A_COUNTRY } from './field-words.js';

/**
 * The rules of each field of a location (README: "Location fields"), shared by the import, PATCH and
 * bulk edit: each takes what a row or a body carries and returns the stored value, or throws FieldError
 * with the reason in a person's words.
 */
export class FieldError extends Error {}

export const STATUSES = ['open', 'temporarily_closed', 'permanently_closed'] as const;
export type LocationStatus = (typeof STATUSES)[number];

/** Every stored field of a location but its id, client and timestamps. */
export interface LocationValues {
  name: string;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  google_place_id: string | null;
  store_code: string | null;
  phone: string | null;
  website: string | null;
  latitude: number | null;
  longitude: number | null;
  primary_category: string | null;
  labels: string[] | null;
  status: LocationStatus;
  hours: Hours | null;
}
export type LocationField = keyof LocationValues;

/** The fields in their order: the list's, the export's, the diff's. */
export const LOCATION_FIELDS: readonly LocationField[] = [
  'name',
  'store_code',
  'address',
  'city',
  'state',
  'zip',
  'country',
  'google_place_id',
  'phone',
  'website',
  'latitude',
  'longitude',
  'primary_category',
  'labels',
  'status',
  'hours',
];

// Google Business Profile's limits (bulk upload spreadsheet guide): store codes under 60 characters
// with no URL; at most 10 labels of 50 characters.
export const MAX_STORE_CODE = 60;
export const MAX_LABELS = 10;
export const MAX_LABEL = 50;
export const MAX_CATEGORY = 100;

// What Excel shows of a long number in a General cell (2.12555E+09): its last digits are gone for good.
const SCIENTIFIC = /^\d(?:[.,]\d+)?E\+?\d+$/i;
// The same as Excel writes it, always with its "+": a store code written 1E5 is a code, 1.00E+05 is Excel's.
const EXCEL_SCIENTIFIC = /^\d(?:[.,]\d+)?E\+\d+$/i;

// A code Excel read as a date and shows in its own date form (10-01 as 1-Oct, 3/14 as 14-Mar, 2024-05 as
// May-24): found by a probe, an export's codes came back so and were written as changes.
const EXCEL_DATE =
  /^(?:\d{1,2}-(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2})$/;

/**
 * Excel's 1.00E+05 of a code typed 1E5 or 100000 (a store code's, a postal code's): which it was is lost
 * (found by a probe), so the cell is refused with how to get the code back.
 */
function refuseExcelScientific(text: string, column: 'store code' | 'postal code'): void {
  if (!EXCEL_SCIENTIFIC.test(text)) return;
  throw new FieldError(
    `"${text}" is a code Excel turned into a number in scientific notation: format the ${column} column as Text in Excel, enter the codes again and save the file again`,
  );
}

function storeCode(text: string): string {
  if (text.length > MAX_STORE_CODE) throw new FieldError(`must be at most ${MAX_STORE_CODE} characters`);
  if (EXCEL_DATE.test(text))
    throw new FieldError(
      `"${text}" is a code Excel turned into a date: format the store code column as Text in Excel, enter the codes again and save the file again`,
    );
  refuseExcelScientific(text, 'store code');
  if (/[<>]/.test(text) || /^[a-z][a-z0-9+.-]*:\/\/|^www\./i.test(text))
    throw new FieldError('must not contain < or > or be a URL');
  return text;
}

/**
 * A phone that Excel's number may have changed, refused with the readings it may be: it is the location's,
 * in an import that updates a location whose stored phone is one of them (rows.ts, import.ts).
 */
export class PhoneReadings extends FieldError {
  constructor(
    message: string,
    readonly readings: readonly string[],
  ) {
    super(message);
  }
}

/**
 * A phone Excel made a number of may have lost its "+" (a typed +493511234567 is the number 493511234567:
 * found by a probe, it was stored as +49 4935 11234567) or its trunk 0 (04921 123456, Emden, is
 * 4921123456: found by a review). When both readings are valid numbers and differ, neither is taken: the
 * row is refused naming both, unless it updates a location whose stored phone is one of them (an export's
 * round trip). Its `readings`: the international one first.
 */
class AmbiguousPhone extends PhoneReadings {
  constructor(text: string, readings: readonly [string, string]) {
    super(
      `"${text}" may be ${readings[0]} (an international number, its + dropped) or ${readings[1]} (a national ` +
        'one, its leading 0 dropped), as Excel drops both: write it with its + or its leading 0',
      readings,
    );
  }
}

/**
 * Digits that are no number of the location's country but, with a "+", a valid number of another: Excel's
 * form of a foreign number (a US location's +44 20 7946 0958 saved as 442079460958: found by a walk). Not
 * taken on a guess: the row updates a location whose stored phone it is (the round trip), or is refused,
 * told the reading.
 */
class PhoneWithoutPlus extends PhoneReadings {
  constructor(national: FieldError, international: string) {
    super(`${national.message} (read with a +, it is ${international}: write it so if it is, as Excel drops the +)`, [
      international,
    ]);
  }
}

/**
 * The number as international when it may be one written without its "+": digits that start with the
 * country's calling code, in a country whose national numbers take the trunk prefix 0, that make a valid
 * number of that country with "+". Italy, Spain and others dial without a trunk prefix: their numbers are
 * read as written.
 */
function missingPlus(text: string, country: string | null): string | undefined {
  if (country === null || !/^[1-9][\d\s().-]*$/.test(text) || !isSupportedCountry(country)) return undefined;
  const digits = text.replace(/\D/g, '');
  if (!digits.startsWith(getCountryCallingCode(country))) return undefined;
  try {
    const number = parsePhoneNumberWithError(`+${digits}`);
    // Written nationally, it takes the trunk prefix 0 before its digits: no national number starts as it does.
    const trunk = number.formatNational().replace(/\D/g, '') === `0${number.nationalNumber}`;
    return trunk && number.isValid() && number.country === country ? number.number : undefined;
  } catch {
    return undefined;
  }
}

// A number written by a tool that reads every number as a decimal (pandas' to_csv, a float column): 6175550100.0.
const FLOAT_DIGITS = /^(\+?\d{6,15})\.0+$/;

function phone(written: string, country: string | null): string {
  const text = written.replace(FLOAT_DIGITS, '$1');
  const international = missingPlus(text, country);
  if (international === undefined) return nationalOrWithZero(text, country);
  let national: string | undefined;
  try {
    national = nationalPhone(text, country);
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
  }
  if (national === undefined || national === international) return international;
  throw new AmbiguousPhone(text, [international, national]);
}

/**
 * The phone as written; where that is no number of the country, with a 0 in front when that is one: Excel
 * dropped it where the 0 is part of the number, as Italy's are (06 12345678, Rome, saved as 612345678:
 * found by a probe, it was refused). The number is parsed once when it is valid as written (the hot path).
 */
function nationalOrWithZero(text: string, country: string | null): string {
  try {
    return nationalPhone(text, country);
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    const zero = withLeadingZero(text, country);
    if (zero !== undefined) return zero;
    const international = country === null ? undefined : withPlus(text);
    throw international === undefined ? error : new PhoneWithoutPlus(error, international);
  }
}

/** A reading of Excel's digits (with a "+", or a 0, in front) as E.164, when it is a valid number; else undefined. */
function validReading(candidate: string, country?: CountryCode): string | undefined {
  try {
    const number = parsePhoneNumberWithError(
      candidate,
      country === undefined ? undefined : { defaultCountry: country },
    );
    return number.isValid() ? number.number : undefined;
  } catch {
    return undefined;
  }
}

/** Digits alone (Excel's number) read with a "+" in front, when that is a valid number; else undefined. */
function withPlus(text: string): string | undefined {
  return /^[1-9]\d{6,14}$/.test(text) ? validReading(`+${text}`) : undefined;
}

/** Digits with a 0 in front, when that makes a valid number of the country; else undefined. */
function withLeadingZero(text: string, country: string | null): string | undefined {
  if (country === null || !/^[1-9]\d{4,}$/.test(text) || !isSupportedCountry(country)) return undefined;
  return validReading(`0${text}`, country);
}

/**
 * Whose numbering plan a number is judged by: its country, else its calling code (+1 is shared by the US,
 * Canada and the Caribbean: an invalid +1 number has no one country; a walk read "its country").
 */
const planOf = (number: PhoneNumber) => number.country ?? `+${number.countryCallingCode}`;

/** A phone as written, read with the location's country when it has no country code. */
function nationalPhone(text: string, country: string | null): string {
  if (SCIENTIFIC.test(text)) {
    throw new FieldError(
      `"${text}" is a number Excel shortened (scientific notation), its last digits lost: ` +
        'format the phone column as Text in Excel, enter the numbers again and save the file again',
    );
  }
  try {
    const number = parsePhoneNumberWithError(withExtensionMark(text), {
      defaultCountry: (country ?? undefined) as CountryCode,
    });
    if (!number.isPossible()) throw new FieldError(`"${text}" has the wrong number of digits for ${planOf(number)}`);
    // The right length is not enough ("030 12" is 4 digits of Berlin): the number must fit its country's plan.
    if (!number.isValid())
      throw new FieldError(`"${text}" is not a number that ${planOf(number)}'s numbering plan allows`);
    return number.number;
  } catch (error) {
    if (error instanceof FieldError) throw error;
    const reason = error instanceof ParseError ? error.message : 'NOT_A_NUMBER';
    const words = phoneReason(text, reason, country);
    throw reason === 'INVALID_COUNTRY' ? new PhoneNeedsCountry(words) : new FieldError(words);
  }
}

/** A phone written without its country code, on a location of no known country. */
class PhoneNeedsCountry extends FieldError {}

/**
 * What is wrong with a phone in any country ("not a phone number", Excel's scientific notation); undefined
 * when only its country could tell. For a row refused for another field, whose national phone never got to
 * wait for the matched location's country (rows.ts): without it, the phone's own problem went unsaid.
 */
export function phoneProblemInAnyCountry(text: string): string | undefined {
  try {
    nationalPhone(text, null);
    return undefined;
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return error instanceof PhoneNeedsCountry ? undefined : error.message;
  }
}

// "ext. 3", "x12", "#4", "extension 7" after the number: what libphonenumber reads as an extension.
const EXTENSION = /\d\s*(?:e?xt\.?|extension|x|#)\s*\d+\s*$/i;

// The words for an extension that libphonenumber does not know, in the languages of the sheets agencies
// get: French "poste" (Québec's "514 555 1104 poste 104"), Dutch "toestel" ("tst."), Italian "interno"
// ("int."). Each is read as "ext.".
const LOCAL_EXTENSION = /(\d)\s*,?\s*(?:poste|p\.|toestel|tst\.?|interno|int\.)\s*(\d+)\s*$/i;

// German "Durchwahl" and Austria's "DW" are not extensions: their digits are the end of the number itself
// (a direct dial: "+43 1 53114 DW 0" is +431531140, as "+43 1 53114-0" is), so they are joined to it.
const DIRECT_DIAL = /(\d)\s*,?\s*(?:durchwahl|dw\.?)\s*(\d+)\s*$/i;

/** A phone text with its extension word, when it is one of LOCAL_EXTENSION's, written as "ext.", and a direct dial joined. */
function withExtensionMark(text: string): string {
  return text.replace(DIRECT_DIAL, '$1$2').replace(LOCAL_EXTENSION, '$1 ext. $2');
}

/**
 * The extension a phone text carries ("ext. 3" of "+1 217-555-0100 ext. 3"), which the stored E.164
 * number cannot keep; null when it has none or is no number.
 */
export function phoneExtension(text: unknown, country: string | null): string | null {
  if (typeof text !== 'string') return null;
  const marked = withExtensionMark(text);
  if (!EXTENSION.test(marked)) return null;
  try {
    return parsePhoneNumberWithError(marked, { defaultCountry: (country ?? undefined) as CountryCode }).ext ?? null;
  } catch {
    return null;
  }
}

/** Why a phone has no country: "+999 1234" is written with its code, which is no country's (a probe was told to write it so). */
function noCountryWords(text: string, country: string | null): string {
  const plus = /^\s*\+\s*(\d{1,3})?/.exec(text);
  if (plus !== null) {
    const code = plus[1];
    return `"${text}" starts with ${code ? `+${code}, which is no country's calling code` : 'no country calling code'}`;
  }
  return country === null
    ? `"${text}" ${NEEDS_A_COUNTRY}: give the location's country, or write the number with its country code (+1 for the US and Canada, +44 for the UK …)`
    : `"${text}" is not a phone number of ${country}`;
}

function phoneReason(text: string, reason: string, country: string | null): string {
  switch (reason) {
    case 'INVALID_COUNTRY':
      return noCountryWords(text, country);
    case 'TOO_SHORT':
      return `"${text}" is too short to be a phone number`;
    case 'TOO_LONG':
      return `"${text}" is too long to be a phone number`;
    default:
      return `"${text}" is not a phone number`;
  }
}

// A bare domain (example.com) or an http(s) address (https://www.example.com/shop).
/**
 * A website as a URL: a bare domain gets https://. Letters beyond ASCII in its path or query stay as
 * written (https://boulangerie.example/éclairs), where the URL parser percent-encodes them (…/%C3%A9clairs):
 * the form a browser's address bar shows, and one a person can read in the editor and the export. Only
 * the percent-encodings of such letters are decoded (RFC 3987, 3.2, the URI's IRI): a space, a slash or
 * any other ASCII character stays encoded, so the result reads back to the same URL.
 */
function website(text: string): string {
  const url = websiteUrl(text);
  if (url === null) throw new FieldError(WEBSITE_WORDS);
  return readableUrl(withReadableHost(url));
}

/**
 * The URL with an internationalized host as its letters (https://müller.de/, as the address bar shows
 * it and as it was typed), where the URL parser writes its ASCII form (https://xn--mller-kva.de/). The
 * same domain either way: Google and browsers take both.
 */
function withReadableHost(url: URL): string {
  if (!url.hostname.includes('xn--')) return url.href;
  const host = domainToUnicode(url.hostname);
  return host === '' ? url.href : url.href.replace(`//${url.hostname}`, `//${host}`);
}

// A run of percent-encoded bytes of 0x80 and above: the UTF-8 of letters beyond ASCII.
const NON_ASCII_ESCAPES = /(?:%[89a-f][0-9a-f])+/gi;
// What an IRI does not show as itself (RFC 3987, 3.2 and 4.1): controls and bidirectional marks, blanks,
// what is drawn as nothing or as a blank (default-ignorable code points: variation selectors, fillers; the
// braille blank), private use, unassigned code points and noncharacters, and what a reader would take for a
// URL's own delimiters (fullwidth and small forms of / ? # & = : ; @ + , %, other slashes, the Greek
// question mark).
const KEPT_ESCAPED =
  /[\p{Cc}\p{Cf}\p{Z}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800\u037E\u2044\u2047\u2215\u2571\u27CB\u29F5\u29F8\uFE50\uFE54-\uFE56\uFE5F\uFE60\uFE62\uFE66\uFE68\uFE6A\uFE6B\uFF03\uFF05\uFF06\uFF0B\uFF0C\uFF0F\uFF1A\uFF1B\uFF1D\uFF1F\uFF20]/u;
// A combining mark is drawn on the character before it: decoded only after a letter of the URL itself
// (e%CC%81, an e and its accent), not after a delimiter, a digit, a sign or an escape (%20%CC%81).
const MARK_FIRST = /^\p{M}/u;
const LETTER = /\p{L}/u;

function markOnLetter(href: string, at: number): boolean {
  const before = href[at - 1];
  return before !== undefined && LETTER.test(before) && href[at - 3] !== '%';
}

/** A URL with the letters beyond ASCII of its path, query and fragment readable (see website()); idempotent. */
export function readableUrl(href: string): string {
  return href.replace(NON_ASCII_ESCAPES, (escapes: string, at: number) => {
    let text: string;
    try {
      text = decodeURIComponent(escapes);
    } catch {
      return escapes; // Not UTF-8: left as the bytes were given.
    }
    if (KEPT_ESCAPED.test(text) || (MARK_FIRST.test(text) && !markOnLetter(href, at))) return escapes;
    return text;
  });
}

// A decimal (a comma for its point too), or Excel's scientific notation of a tiny one (1E-07).
// German Excel writes the scientific notation with its decimal comma too (-1,5E-07).
const COORDINATE = /^[+-]?(\d+([.,]\d+)?|\.\d+|\d+([.,]\d+)?e[+-]?\d+)$/i;

function coordinate(value: string | number, limit: number): number {
  const number = typeof value === 'number' ? value : Number(value.replace(/^([+-]?\d+),(\d+)/, '$1.$2'));
  if (typeof value === 'string' && !COORDINATE.test(value)) throw new FieldError(`"${value}" is not a number`);
  if (!Number.isFinite(number) || Math.abs(number) > limit)
    throw new FieldError(`must be a number from -${limit} to ${limit}`);
  return number;
}

/**
 * A change that leaves a location with one coordinate of the pair (a probe stored a latitude alone): a map
 * needs both. `input` is what the change gives; a change that gives neither coordinate leaves the pair as it
 * was (a location stored with half of one before is not refused for another field). The missing one and
 * its words, or null.
 */
export function halfCoordinate(
  input: { latitude?: number | null; longitude?: number | null },
  after: { latitude: number | null; longitude: number | null },
): { field: 'latitude' | 'longitude'; message: string } | null {
  if (input.latitude === undefined && input.longitude === undefined) return null;
  if ((after.latitude === null) === (after.longitude === null)) return null;
  const [missing, given] = after.latitude === null ? ['latitude', 'longitude'] : ['longitude', 'latitude'];
  return {
    field: missing as 'latitude' | 'longitude',
    message: `is missing while the ${given} is given: a place on a map needs both, or neither`,
  };
}

/** Labels each read by labelItem, from a list or from a cell's text split at its commas. */
function labels(value: string[], most = MAX_LABELS): string[] | null {
  // A sheet's cell (Google's bulk sheet, the export) separates labels by commas: one cannot hold one.
  const comma = value.find((label) => label.includes(','));
  if (comma !== undefined)
    throw new FieldError(`"${comma.slice(0, 30)}" holds a comma; labels are separated by commas in a sheet's cell`);
  // Each was read by labelItem (trimmed, '' when blank). Repeats are left out before counting: ten labels
  // and a repeat are ten.
  const list = [...new Set(value.filter((label) => label !== ''))];
  if (list.length > most) throw new FieldError(`has ${list.length} labels; a location takes at most ${MAX_LABELS}`);
  const broken = list.find((label) => /[\t\r\n]/.test(label));
  if (broken !== undefined)
    throw new FieldError(`"${broken.slice(0, 20)}" holds a tab or a line break; a label is one line`);
  const long = list.find((label) => label.length > MAX_LABEL);
  if (long !== undefined) throw new FieldError(`"${long.slice(0, 20)}…" is longer than ${MAX_LABEL} characters`);
  return list.length === 0 ? null : list;
}

/**
 * One label of a list, read as a text field is: a control character or a lone surrogate is refused, and
 * a label of nothing visible or a placeholder ("N/A") is blank, left out.
 */
function labelItem(label: string, placeholders?: ReadonlySet<string>): string {
  return text(label, Infinity, 'labels', placeholders) ?? '';
}

/**
 * Each label of a list read by labelItem. A function of its own, not an arrow inside fieldValue: a
 * parameter that an inner function captures makes V8 allocate a context at every call of the function
 * that holds it, whether or not the inner one runs (fieldValue is called for every field of every row:
 * 64 MB of an import's 470 MB of garbage, by V8's sampling heap profiler).
 */
function labelItems(list: readonly string[], placeholders?: ReadonlySet<string>): string[] {
  return list.map((label) => labelItem(label, placeholders));
}

const STATUS_WORDS: Record<string, LocationStatus> = {
  open: 'open',
  opened: 'open',
  operational: 'open',
  active: 'open',
  temporarily_closed: 'temporarily_closed',
  closed_temporarily: 'temporarily_closed',
  temporarily_close: 'temporarily_closed',
  permanently_closed: 'permanently_closed',
  closed_permanently: 'permanently_closed',
  // Uberall's location statuses: ACTIVE (above), INACTIVE (taken off the listings for now). A bare
  // "closed" stays a 400: it does not say whether for now or for good.
  inactive: 'temporarily_closed',
};

/** The status a text names ("Temporarily closed", CLOSED_PERMANENTLY), or undefined. */
function statusOfWord(text: string): LocationStatus | undefined {
  return STATUS_WORDS[text.toLowerCase().replace(/[\s-]+/g, '_')];
}

function status(text: string): LocationStatus {
  const value = statusOfWord(text);
  // A bare "closed" (Uberall's CLOSED) is refused for what it leaves unsaid, not as an unknown word (a walk).
  if (value === undefined && /^closed$/i.test(text.trim()))
    throw new FieldError(
      `"${text.trim()}" does not say whether for now or for good: write temporarily_closed or permanently_closed ("temporarily closed", "permanently closed")`,
    );
  if (value === undefined)
    throw new FieldError(
      `"${text.trim()}" is not a status: write open, temporarily_closed or permanently_closed (their words, such as "Temporarily closed" or CLOSED_PERMANENTLY, are read too)`,
    );
  return value;
}

// Yext's `closed` (Knowledge Graph: true when the location is closed for good), as sheets write a yes
// or a no; "closed" alone says yes here, where the Status column finds it ambiguous.
const CLOSED_WORDS: Record<string, boolean> = {
  yes: true,
  y: true,
  true: true,
  '1': true,
  x: true,
  closed: true,
  no: false,
  n: false,
  false: false,
  '0': false,
  // In the languages the column step reads headers in (a walk's German "Geschlossen: ja" imported as open):
  // German and Dutch, French, Spanish and Italian.
  ja: true,
  j: true,
  nein: false,
  nee: false,
  oui: true,
  non: false,
  sí: true,
  si: true,
  sì: true,
};
const CLOSED_FORMS =
  'yes, y, true, 1, x, closed or permanently closed (ja, oui, sí, sì); no, n, false, 0 or open (nein, nee, non, no)';

/** Whether a Closed value says closed for good: its yes and no words, or a status word of open or closed for good. */
function closedForGood(text: string): boolean {
  const yesOrNo = CLOSED_WORDS[text.toLowerCase()];
  if (yesOrNo !== undefined) return yesOrNo;
  const said = statusOfWord(text);
  if (said === 'permanently_closed' || said === 'open') return said === 'permanently_closed';
  const temporarily = said === 'temporarily_closed' ? ' (a temporary closure goes in Status)' : '';
  throw new FieldError(`Closed "${text}" is not a yes or no${temporarily}: Closed takes ${CLOSED_FORMS}`);
}

/** A value as a message quotes it: text in quotes, true and false bare. */
function quoted(value: string | boolean): string {
  return typeof value === 'string' ? `"${value}"` : String(value);
}

/**
 * A Closed no with no Status beside it: not closed for good, which says nothing of a temporary closure.
 * A location closed for good opens; one temporarily closed stays so (Yext writes "No" on every location
 * not closed for good, and a re-import of its export reopened them all), and a new one is open.
 */
export const NOT_CLOSED_FOR_GOOD = 'not_closed_for_good';

/**
 * A row's status with its Closed value (Yext's `closed`) read into it (README: "Closed"): yes is
 * permanently_closed, no is NOT_CLOSED_FOR_GOOD, when Status is blank or agrees; a Status that disagrees is refused,
 * naming both, except that temporarily closed is not closed for good, so Closed no keeps it. A blank
 * Closed says nothing: the status is Status's, or blank (null) by the import's blank-cell rule.
 * `status` is what the row's Status read as (undefined when it has none), `statusText` its text.
 */
export function statusWithClosed(
  status: LocationStatus | null | undefined,
  statusText: unknown,
  closed: string | boolean | null,
  placeholders?: ReadonlySet<string>,
): LocationStatus | null | typeof NOT_CLOSED_FOR_GOOD {
  const closedText = typeof closed === 'string' ? text(closed, 40, 'closed', placeholders) : closed;
  if (closedText === null) return status ?? null;
  const forGood = typeof closedText === 'boolean' ? closedText : closedForGood(closedText);
  if (status === undefined || status === null) return forGood ? 'permanently_closed' : NOT_CLOSED_FOR_GOOD;
  if (forGood === (status === 'permanently_closed')) return status;
  const given = `Status "${String(statusText).trim()}" and Closed ${quoted(closedText)} disagree`;
  const fix = forGood
    ? 'Closed yes means closed for good; give Status "permanently closed"'
    : 'Closed no means not closed for good; give Status "open" or "temporarily closed"';
  throw new FieldError(`${given}: ${fix}, or leave one of them blank`);
}

/**
 * Hours as a week in one text, or an object of days each with a text or intervals; a day's text that is
 * blank or a placeholder ("N/A") is unknown, as the same cell of a sheet's day column is. Intervals that
 * overlap are refused (hours.ts, refuseOverlaps).
 */
function hours(value: string | Record<string, unknown>, placeholders?: ReadonlySet<string>): Hours | null {
  try {
    const week = typeof value === 'string' ? weekHours(value) : daysHours(value, placeholders);
    refuseOverlaps(week);
    return orderedHours(week);
  } catch (error) {
    if (!(error instanceof HoursError)) throw error;
    throw new FieldError(error.formHint ? `${error.message}: write hours as ${HOURS_FORMS}` : error.message);
  }
}

function daysHours(value: Record<string, unknown>, placeholders?: ReadonlySet<string>): Hours {
  const week: Hours = {};
  for (const [key, day] of Object.entries(value)) {
    if (!(DAYS as readonly string[]).includes(key)) throw new HoursError(`"${key}" is not a day (mon ... sun)`);
    if (day === null || day === undefined) continue;
    if (typeof day === 'string') {
      const text = day.trim();
      if (text === '' || isPlaceholder(text, 'hours', placeholders) || BY_APPOINTMENT.test(text)) continue;
      week[key as Day] = oneDayIntervals(key as Day, text);
    } else week[key as Day] = intervalsOf(key as Day, day as string[][]);
  }
  return week;
}

/** A day given as intervals [["09:00", "17:00"], ...]: each read as a range; none is a closed day. */
function intervalsOf(day: Day, intervals: string[][]): Hours[Day] {
  return intervals.length === 0 ? [] : oneDayIntervals(day, intervals.map((interval) => interval.join('-')).join(','));
}

// Nothing a person could see: spaces, and format characters such as U+200B ZERO WIDTH SPACE.
const INVISIBLE = /^[\p{Z}\p{Cf}\s]*$/u;
const PRINTABLE_ASCII = /^[\u0020-\u007E]*$/;
const SPACE_OR_FORMAT = /^[\s\p{Cf}]$/u;

/** The text without spaces and format characters at either end, in one pass each way (a pattern was slow). */
function withoutEdgeFormat(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && SPACE_OR_FORMAT.test(value[start]!)) start++;
  while (end > start && SPACE_OR_FORMAT.test(value[end - 1]!)) end--;
  return value.slice(start, end);
}
/** Codes and addresses of one line: a tab or a line break in one is a mistake of the sheet. */
const ONE_LINE: ReadonlySet<string> = new Set(['store_code', 'google_place_id', 'phone', 'website', 'country']);

/**
 * Refuses a lone surrogate, a control character, and a tab or a line break in a field of one line; true
 * when the text holds nothing visible. For text that is not printable ASCII alone (text() tests that).
 */
function invisibleOrRefused(value: string, field: string): boolean {
  if (hasLoneSurrogate(value)) throw new FieldError(LONE_SURROGATE_WORDS);
  const control = controlCharacterWords(value);
  if (control !== undefined) throw new FieldError(control);
  if (INVISIBLE.test(value)) return true;
  if (ONE_LINE.has(field) && /[\t\r\n]/.test(value.trim()))
    throw new FieldError('holds a tab or a line break; it is one line');
  return false;
}

/**
 * A text field's value, trimmed; null when blank or one of `placeholders`. Text must be well-formed
 * Unicode, never rewritten.
 */
function text(value: string, maxLength: number, field: string, placeholders?: ReadonlySet<string>): string | null {
  // Printable ASCII (nearly every cell of an import) holds nothing refused, invisible or to trim but spaces:
  // one test instead of five. Else invisible format characters at either end go with the spaces (a store
  // code "\u200B00123" pasted from a web page matched nothing: found by a probe); inside the text they stay.
  const ascii = PRINTABLE_ASCII.test(value);
  if (!ascii && invisibleOrRefused(value, field)) return null;
  const trimmed = excelText(textOrNull(ascii ? value : withoutEdgeFormat(value)));
  if (trimmed !== null && isPlaceholder(trimmed, field, placeholders)) return null;
  if (trimmed !== null && trimmed.length > maxLength) throw new FieldError(`is longer than ${maxLength} characters`);
  return trimmed;
}

// Excel's formula errors but #N/A (a placeholder: a lookup that found nothing): a cell whose formula broke.
const EXCEL_ERROR =
  /^#(?:REF!|VALUE!|DIV\/0!|NAME\?|NUM!|NULL!|SPILL!|CALC!|FIELD!|BLOCKED!|CONNECT!|BUSY!|UNKNOWN!)$/i;
// A number typed with Excel's text mark ('00123, '02116, '+44 20 …): the mark is Excel's, not the value's.
const TEXT_MARKED_NUMBER = /^'(?=[\d+(.])[\d\s+().,/-]+$/;

/**
 * A cell's text as Excel meant it: a formula's error value refused (found by a probe: the address it
 * should have shown would be missing, or cleared with blanks=clear), a number's leading text mark dropped.
 */
function excelText(text: string | null): string | null {
  if (text === null || (text.charCodeAt(0) !== 0x23 && text.charCodeAt(0) !== 0x27)) return text;
  if (EXCEL_ERROR.test(text))
    throw new FieldError(`"${text}" is an Excel formula's error: fix the formula in the sheet, or clear the cell`);
  return TEXT_MARKED_NUMBER.test(text) ? text.slice(1) : text;
}

/** Limits of the plain text fields, after trimming. */
export const TEXT_LIMITS = {
  name: 200,
  address: 500,
  city: 120,
  state: 120,
  zip: 20,
  country: 100,
  google_place_id: 300,
  store_code: 200,
  phone: 50,
  website: 2048,
  primary_category: MAX_CATEGORY,
} as const;

type Raw = string | number | string[] | Record<string, unknown> | null | undefined;

/**
 * One field's stored value from what was sent: undefined when absent, null when blank. `country` is the
 * location's country (alpha-2) for the phone rule; `placeholders` the words read as blank (the default
 * list unless given: NO_PLACEHOLDERS when the caller blanked them by its own list).
 */
export function fieldValue(
  field: LocationField,
  raw: Raw,
  country: string | null,
  placeholders?: ReadonlySet<string>,
): unknown {
  if (raw === undefined) return undefined;
  if (raw === null) return null;
  if (typeof raw === 'string') {
    const limit = (TEXT_LIMITS as Record<string, number>)[field] ?? 2000;
    const value = text(raw, limit, field, placeholders);
    if (value === null) return null;
    // Each label of the cell as a label of a list: "summer, N/A" is summer.
    if (field === 'labels') return labels(labelItems(value.split(','), placeholders));
    return fromText(field, value, country);
  }
  if (field === 'latitude') return coordinate(raw as number, 90);
  if (field === 'longitude') return coordinate(raw as number, 180);
  if (field === 'labels') return labels(labelItems(raw as string[], placeholders));
  if (field === 'hours') return hours(raw as Record<string, unknown>, placeholders);
  throw new FieldError('must be text or null');
}

/**
 * A bulk edit's add_labels or remove_labels, read as the labels field is: each trimmed, blanks and repeats
 * left out, at most 50 characters, no comma; null when none is left. Labels to add are at most 10 (a
 * location holds no more); labels to remove may be more, since the locations chosen may hold different ones.
 */
export function labelsToChange(list: string[], change: 'add' | 'remove'): string[] | null {
  // Labels to add are read as a location's (a placeholder is none); labels to remove as stored, so that
  // a label "N/A" kept before can be removed by its name.
  const placeholders = change === 'add' ? undefined : NO_PLACEHOLDERS;
  return labels(labelItems(list, placeholders), change === 'add' ? MAX_LABELS : Infinity);
}

// The US states, territories and military codes whose ZIP codes do not start with 0, by code and by name
// (those that do: CT, MA, ME, NH, NJ, NY's 005 and Fishers Island's 063, PR, RI, VT, VI and AE, the armed
// forces in Europe).
const NO_ZERO_ZIP_STATES: ReadonlySet<string> = new Set(
  (
    'al alabama|ak alaska|az arizona|ar arkansas|ca california|co colorado|de delaware|dc district of columbia|' +
    'fl florida|ga georgia|hi hawaii|id idaho|il illinois|in indiana|ia iowa|ks kansas|ky kentucky|la louisiana|' +
    'md maryland|mi michigan|mn minnesota|ms mississippi|mo missouri|mt montana|ne nebraska|nv nevada|' +
    'nm new mexico|nc north carolina|nd north dakota|oh ohio|ok oklahoma|or oregon|pa pennsylvania|' +
    'sc south carolina|sd south dakota|tn tennessee|tx texas|ut utah|va virginia|wa washington|wv west virginia|' +
    'wi wisconsin|wy wyoming|gu guam|as american samoa|mp northern mariana islands|mh marshall islands|' +
    'fm micronesia|fm federated states of micronesia|pw palau|aa armed forces americas|ap armed forces pacific'
  )
    .split('|')
    .flatMap((state) => [state.slice(0, 2), state.slice(3)]),
);

/**
 * A postal code as Excel leaves it: a number cell drops the leading zeros of Boston's 02116, Dresden's
 * 01069 or Bourg-en-Bresse's 01000, and the CSV saved from it keeps 2116. Digits only that do not fit the
 * country's format but fit it with one or two zeros put back (Puerto Rico's 00601) get them back. For an
 * import's rows only (rows.ts): a code typed into the editor is kept as typed, and health says when it
 * does not fit the country (a user's 7870 for Austin's 78701 was saved as New Jersey's 07870).
 */
export function zipWithZeros(value: string, country: string, state?: string | null): string {
  if (!/^\d{3,}$/.test(value) || zipFitsCountry(value, country)) return value;
  // A US state whose ZIP codes start with another digit: the code is mistyped, not stripped (a walk's
  // Austin, TX "7870" became New Jersey's 07870); kept as written, health says it does not fit.
  if (country === 'US' && NO_ZERO_ZIP_STATES.has((state ?? '').trim().toLowerCase())) return value;
  for (const padded of [`0${value}`, `00${value}`]) if (zipFitsCountry(padded, country)) return padded;
  return value;
}

// Only numbers: a tool's category ids (Yext's export gives its categories as ids, 1316 or "1316,1317").
const CATEGORY_IDS = /^\d+(?:\s*[,;|]\s*\d+)*$/;

/** A primary category is its name: a number is a tool's id for it, which no listing shows (a walk stored "1316"). */
function category(value: string): string {
  if (CATEGORY_IDS.test(value))
    throw new FieldError(
      `"${value}" is a category id, not a category: give its name, such as "Coffee shop" (a Yext export's Categories column holds ids: leave it out)`,
    );
  return value;
}

function fromText(field: LocationField, value: string, country: string | null): unknown {
  switch (field) {
    case 'country': {
      const code = countryCode(value);
      if (code === null) throw new FieldError(`"${value}" is not a country name or ISO code`);
      return code;
    }
    case 'store_code':
      return storeCode(value);
    case 'phone':
      return phone(value, country);
    case 'zip':
      // As a store code's (a walk's postal code of 1.00E+05 was stored as written).
      refuseExcelScientific(value, 'postal code');
      return value;
    case 'website':
      return website(value);
    case 'primary_category':
      return category(value);
    case 'latitude':
      return coordinate(value, 90);
    case 'longitude':
      return coordinate(value, 180);
    case 'status':
      return status(value);
    case 'hours':
      return hours(value);
    default:
      return value;
  }
}
