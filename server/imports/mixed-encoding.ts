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
