/**
 * A file that is UTF-8 but for a few bytes: a line pasted from a Windows-1252 file into a UTF-8 one
 * ("Joe’s" as the single byte 0x92). Read as Windows-1252, which is how a file that is not valid UTF-8
 * is read, every other accent of the file would be garbled ("Bäckerei" as "BÃ¤ckerei"): such a file is
 * refused, naming the line, by the server and the dashboard alike. Importing nothing.
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

/** The length of the valid UTF-8 sequence at `at` (a lead byte of 0x80 or above), or 0. */
function sequenceLength(bytes: Uint8Array, at: number): number {
  const lead = bytes[at]!;
  const rule = LEADS.find(([from, to]) => lead >= from && lead <= to);
  if (rule === undefined) return 0;
  const [, , length, low, high] = rule;
  if (at + length > bytes.length || bytes[at + 1]! < low || bytes[at + 1]! > high) return 0;
  for (let next = at + 2; next < at + length; next++) if (bytes[next]! < 0x80 || bytes[next]! > 0xbf) return 0;
  return length;
}

/**
 * The line of the first byte that is not UTF-8, when the file holds more valid multi-byte UTF-8 letters
 * than such bytes (a UTF-8 file with a stray byte); null otherwise (UTF-8, or a legacy encoding's file,
 * where a letter's bytes rarely happen to form UTF-8).
 */
export function mixedEncodingLine(bytes: Uint8Array): number | null {
  let line = 1;
  let valid = 0;
  let invalid = 0;
  let first: number | null = null;
  for (let at = 0; at < bytes.length;) {
    const byte = bytes[at]!;
    if (byte < 0x80) {
      if (byte === 0x0a || (byte === 0x0d && bytes[at + 1] !== 0x0a)) line++;
      at++;
      continue;
    }
    const length = sequenceLength(bytes, at);
    if (length > 0) {
      valid++;
      at += length;
    } else {
      invalid++;
      first ??= line;
      at++;
    }
  }
  return first !== null && valid > invalid ? first : null;
}

/** What a mixed file is told, by the server and the dashboard. */
export function mixedEncodingWords(line: number): string {
  return `Line ${line} holds a byte that is not UTF-8, though the rest of the file is UTF-8: the file mixes two encodings (a line pasted from another file, say), and read as Windows-1252 every accent in it would be garbled. Fix that line, or save the file again as "CSV UTF-8"; nothing was imported.`;
}

/** Bytes Windows-1252 leaves without a letter, which Mac Roman uses for Å ç è ê ù. */
const UNDEFINED_IN_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/**
 * Windows-1252's characters for the bytes 0x80 to 0x9F (the WHATWG Encoding Standard's index): Node 20's
 * TextDecoder reads every label of windows-1252 as ISO-8859-1 there (nodejs/node#56542), so that Excel's
 * € “ ” – … ™ came out as C1 control characters. The five bytes the code page leaves out stay as they are.
 */
export const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

/** The 128 characters of the bytes 0x80 to 0xFF in each encoding (0xA0 on, Windows-1252 is Latin-1). */
const AS_1252 = [...CP1252_HIGH, ...Array.from({ length: 96 }, (_, at) => String.fromCharCode(0xa0 + at))];
const AS_MAC = [...new TextDecoder('macintosh').decode(Uint8Array.from({ length: 128 }, (_, at) => 0x80 + at))];

/** Letters that exist in Windows-1252 but are rare in the languages its files hold (and the ligatures). */
const RARE_LETTERS = new Set([...'ŠšŽžŒœŸƒﬁﬂ']);
const isLower = (byte: number | undefined) => byte !== undefined && byte >= 0x61 && byte <= 0x7a;
const isUpper = (byte: number | undefined) => byte !== undefined && byte >= 0x41 && byte <= 0x5a;
const isLetter = (byte: number | undefined) => isLower(byte) || isUpper(byte);

/**
 * How likely a character is where a byte sits beside ASCII letters: a letter where letters go (1), a rare
 * one (0.3), a capital inside a word ("BŠckerei", "MŸller") or punctuation between letters ("Hauptstra§e",
 * "Mu–oz") not at all (-1); the apostrophe of "Joe’s" is one.
 */
function fit(char: string, before: number | undefined, after: number | undefined): number {
  const between = isLetter(before) && isLetter(after);
  if (char === '’') return between ? 1 : 0;
  if (!/[\p{Ll}\p{Lu}]/u.test(char)) return between ? -1 : 0;
  const upper = char !== char.toLowerCase();
  if (upper ? (isLetter(before) && isLower(after)) || isLower(before) : isUpper(after)) return -1;
  return RARE_LETTERS.has(char) ? 0.3 : 1;
}

/**
 * Whether a file that is not UTF-8 is Mac Roman (Excel for Mac's "Comma Separated Values") rather than
 * Windows-1252: it holds a byte Windows-1252 has no letter for, or its bytes beside ASCII letters read as
 * the letters words hold more often in Mac Roman than in Windows-1252 (found by probes: "BŠckerei MŸller",
 * "CafŽ", "Kšln", "Hauptstra§e" and "Mu–oz" are Mac Roman's Bäckerei Müller, Café, Köln, Hauptstraße and
 * Muñoz). Read on the bytes, whatever a platform's decoder makes of them.
 */
export function looksMacRoman(bytes: Uint8Array): boolean {
  let mac = 0;
  let windows = 0;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at]!;
    if (byte < 0x80) continue;
    if (UNDEFINED_IN_1252.has(byte)) return true;
    const [before, after] = [bytes[at - 1], bytes[at + 1]];
    if (!isLetter(before) && !isLetter(after)) continue;
    mac += fit(AS_MAC[byte - 0x80]!, before, after);
    windows += fit(AS_1252[byte - 0x80]!, before, after);
  }
  return mac > windows;
}

/** A legacy encoding's guess (chardet's), as Mac Roman where it says Windows-1252 of Mac Roman's bytes. */
export function orMacRoman<T extends string>(guess: T, bytes: Uint8Array): T | 'macintosh' {
  return guess === 'windows-1252' && looksMacRoman(bytes) ? 'macintosh' : guess;
}
