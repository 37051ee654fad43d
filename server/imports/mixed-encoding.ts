import { isLatinEncoding } from './latin-encoding.js';

/**
 * A file that mixes UTF-8 with bytes of another encoding: a line pasted from a Windows-1252 file into a
 * UTF-8 one ("Joe’s" as the single byte 0x92). Read as Windows-1252, which is how a file that is not
 * valid UTF-8 is read, its UTF-8 accents would be garbled ("Bäckerei" as "BÃ¤ckerei"), however few: such
 * a file is refused, naming the line, by the server and the dashboard alike. Importing nothing.
 */

// Lead bytes of 0x80 and above: [first lead, last lead, length, the second byte's low and high] (WHATWG's
// UTF-8 decoder: no overlong forms, no surrogates, nothing past U+10FFFF).
const LEADS: readonly (readonly [number, number, number, number, number])[] = [
  [0xc2, 0xdf, 2, 0x80, 0xbf],
  [0xe0, 0xe0, 3, 0xa0, 0xbf],
  [0xe1, 0xec, 3, 0x80, 0xbf],
  [0xed, 0xed, 3, 0x80, 0x9f],
  [0xee, 0xef, 3, 0x80, 0xbf],
  [0xf0, 0xf0, 4, 0x90, 0xbf],
  [0xf1, 0xf3, 4, 0x80, 0xbf],
  [0xf4, 0xf4, 4, 0x80, 0x8f],
];

/**
 * LEADS by byte: each lead's sequence length (0: no lead) and its second byte's range, looked up rather
 * than searched for at every byte past ASCII (a 16 MB Windows-1252 file is millions of them).
 */
const LENGTH = new Uint8Array(256);
const LOW = new Uint8Array(256);
const HIGH = new Uint8Array(256);
for (const [from, to, length, low, high] of LEADS) {
  LENGTH.fill(length, from, to + 1);
  LOW.fill(low, from, to + 1);
  HIGH.fill(high, from, to + 1);
}

/** The length of the valid UTF-8 sequence at `at` (a lead byte of 0x80 or above), or 0. */
function sequenceLength(bytes: Uint8Array, at: number): number {
  const lead = bytes[at]!;
  const length = LENGTH[lead]!;
  if (length === 0 || at + length > bytes.length) return 0;
  const second = bytes[at + 1]!;
  if (second < LOW[lead]! || second > HIGH[lead]!) return 0;
  for (let next = at + 2; next < at + length; next++) if (bytes[next]! < 0x80 || bytes[next]! > 0xbf) return 0;
  return length;
}

/** The character of the valid sequence of `length` bytes at `at`. */
function codePoint(bytes: Uint8Array, at: number, length: number): number {
  let point = bytes[at]! & (0xff >> (length + 1));
  for (let next = at + 1; next < at + length; next++) point = (point << 6) | (bytes[next]! & 0x3f);
  return point;
}

/**
 * Romanian's Ș ș Ț ț, the letters of Latin Extended-B a file of locations holds. The rest of that block
 * (U+0180 to U+024F) is left out: a Latin code page's capital before a sign is such a sequence by chance
 * (Windows-1252's "ÉTÉ…" holds C9 85, U+0245; "CAFFÈ”" C8 94, U+0214; Mac Roman's "«Über»" C7 86, U+01C6:
 * a review), and UTF-8's own text hardly holds the block's other letters.
 */
const ROMANIAN_COMMAS = [0x218, 0x219, 0x21a, 0x21b];

/**
 * Whether a character is one that only UTF-8 puts in a file of Latin-script text: an accented letter or
 * sign of Latin-1 and Latin Extended-A (ä ß é ł ő, U+00A0 to U+017F, and Romanian's ș ț), typographic punctuation, a currency
 * or letterlike sign (’ “ – … € ™, U+2000 to U+214F), or one past U+FFFF (an emoji). The letters of a
 * Latin code page form a valid sequence only by chance, and seldom one of these: Windows-1250's "PÓŁNOC"
 * holds D3 A3, U+04E3 (Cyrillic); a French "café »" with its no-break space E9 A0 BB, U+983B (CJK);
 * "CAFÉ®" C9 AE, U+026E (IPA); Mac Roman's "“École" D2 83, U+0483. Such a file holds one only where it
 * holds UTF-8 once read as Windows-1252 and saved so ("Ã¤" is C3 A4, UTF-8's ä): text garbled before,
 * a mix too, which is refused rather than stored as "Ã¤".
 */
function onlyUtf8Writes(point: number): boolean {
  return (
    (point >= 0xa0 && point <= 0x17f) ||
    ROMANIAN_COMMAS.includes(point) ||
    (point >= 0x2000 && point <= 0x214f) ||
    point > 0xffff
  );
}

/** What the bytes past ASCII of a file hold: valid sequences, bytes that are none, and the telling runs. */
interface Counts {
  valid: number;
  invalid: number;
  /** Whether some run of bytes past ASCII holds a valid sequence of a character only UTF-8 writes. */
  utf8Only: boolean;
}

/**
 * Counts the run of bytes past ASCII from `at` (a word's letters in Shift JIS, GBK or Windows-1251, an
 * accent in UTF-8 or Windows-1252), and answers where it ends. A run holding a character only UTF-8
 * writes tells UTF-8, even beside a stray byte ("Café’s": é in UTF-8 touching Windows-1252's 0x92 was
 * read as Windows-1252 and stored as "CafÃ©’s"). That tells only for a file read as a Latin code page
 * (mixedEncodingLine): in the encodings of runs of bytes past ASCII, valid sequences come by chance
 * (GBK's 楼 beside a digit, "3楼", is C2 A5, UTF-8's ¥; Windows-1251's "КИЇВ" holds C8 AF).
 */
function countRun(bytes: Uint8Array, at: number, counts: Counts): number {
  let next = at;
  let invalid = 0;
  let telling = false;
  while (next < bytes.length && bytes[next]! >= 0x80) {
    const length = sequenceLength(bytes, next);
    if (length > 0) {
      counts.valid++;
      telling ||= onlyUtf8Writes(codePoint(bytes, next, length));
      next += length;
    } else {
      invalid++;
      next++;
    }
  }
  counts.invalid += invalid;
  counts.utf8Only ||= telling;
  return next;
}

/**
 * The line of the first byte that is not UTF-8, when the file holds UTF-8 too (a UTF-8 file with a stray
 * byte: "Bäckerei" and a "Joe’s" pasted from Windows-1252, whose 0x92 is no UTF-8); null otherwise
 * (UTF-8, or a legacy encoding's file). `readAs` is the legacy encoding the file would be read in. A file
 * read as a Latin code page (Windows-1252, Mac Roman, Windows-1250) mixes the two when it holds a
 * character only UTF-8 writes so (onlyUtf8Writes), however few: one ä beside one stray byte was read as
 * Windows-1252 and stored as "BÃ¤ckerei" (found by a probe). Any file mixes them when it holds more valid
 * sequences than such bytes: in the legacy encodings whose words are runs of bytes past ASCII (Shift JIS,
 * GBK, Big5, EUC-KR, Windows-1251), valid sequences of any character happen by chance, but fewer than the
 * bytes that are none.
 */
export function mixedEncodingLine(bytes: Uint8Array, readAs: string): number | null {
  const { first, counts } = scan(bytes);
  if (first === null) return null;
  return counts.valid > counts.invalid || (counts.utf8Only && isLatinEncoding(readAs)) ? first : null;
}

/** The line of the first byte that is not UTF-8 in a file marked as UTF-8 (its byte order mark), or null. */
export const strayByteLine = (bytes: Uint8Array): number | null => scan(bytes).first;

/** The bytes' runs past ASCII counted, and the line of the first one holding a byte that is not UTF-8. */
function scan(bytes: Uint8Array): { first: number | null; counts: Counts } {
  const counts: Counts = { valid: 0, invalid: 0, utf8Only: false };
  let line = 1;
  let first: number | null = null;
  for (let at = 0; at < bytes.length;) {
    const byte = bytes[at]!;
    if (byte >= 0x80) {
      const invalid = counts.invalid;
      at = countRun(bytes, at, counts);
      if (counts.invalid > invalid) first ??= line;
      continue;
    }
    if (byte === 0x0a || (byte === 0x0d && bytes[at + 1] !== 0x0a)) line++;
    at++;
  }
  return { first, counts };
}

/** What a mixed file is told, by the server and the dashboard. */
export function mixedEncodingWords(line: number): string {
  return `Line ${line} holds a byte that is not UTF-8, though other letters of the file are UTF-8: the file mixes two encodings (a line pasted from another file, say), and read as Windows-1252 every accent in UTF-8 would be garbled. Fix that line, or save the file again as "CSV UTF-8"; nothing was imported.`;
}

/**
 * What a file that says it is UTF-8 (Excel's "CSV UTF-8" starts with UTF-8's byte order mark) is told when
 * a line holds a byte that is not, by the server and the dashboard: saving it as UTF-8 again would not help.
 */
export function strayByteWords(line: number): string {
  return `Line ${line} holds a byte that is not UTF-8, though the file starts with UTF-8's byte order mark (as Excel's "CSV UTF-8" does): a line pasted from a file in another encoding, say. Type that line's accented letters and signs again, save, and import again; nothing was imported.`;
}
