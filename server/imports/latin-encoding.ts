/**
 * Which single-byte encoding a file that is not UTF-8 is in, among the three that spreadsheets of Latin
 * script are saved in (README: "Import a CSV or Excel file"): Windows-1252 (Excel's "CSV" in Western
 * Europe and the Americas), Mac Roman (Excel for Mac's "Comma Separated Values") and Windows-1250
 * (Excel's "CSV" in Central Europe). chardet cannot tell them apart on short files; the bytes beside
 * ASCII letters can: each encoding reads them as letters where words have letters, or not. Found by
 * probes: "BŠckerei MŸller", "CafŽ", "Hauptstra§e" and "Mu–oz" are Mac Roman's Bäckerei Müller, Café,
 * Hauptstraße and Muñoz; "£ód\u0178" and "Wroc³aw" are Windows-1250's Łódź and Wrocław. The server's
 * CSV upload and the dashboard's reader use it alike, on the bytes, whatever a platform's decoder makes
 * of them.
 */

/**
 * Windows-1252's characters for the bytes 0x80 to 0x9F (the WHATWG Encoding Standard's index): Node 20's
 * TextDecoder reads every label of windows-1252 as ISO-8859-1 there (nodejs/node#56542), so that Excel's
 * € “ ” – … ™ came out as C1 control characters. The five bytes the code page leaves out stay as they are.
 */
export const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

export type LatinEncoding = 'windows-1252' | 'macintosh' | 'windows-1250';

const HIGH = Uint8Array.from({ length: 128 }, (_, at) => 0x80 + at);

/** Each encoding's characters for the bytes 0x80 to 0xFF, and the letters it has that its files seldom hold. */
const ENCODINGS: { name: LatinEncoding; chars: string[]; rare: ReadonlySet<string> }[] = [
  {
    name: 'windows-1252',
    // From 0xA0 on, Windows-1252 is Latin-1.
    chars: [...CP1252_HIGH, ...Array.from({ length: 96 }, (_, at) => String.fromCharCode(0xa0 + at))],
    // Œ and œ are French (œuvre, cœur); Š, Ž and Ÿ are other languages' letters, seldom in these files.
    rare: new Set([...'ŠšŽžŸƒ']),
  },
  { name: 'macintosh', chars: [...new TextDecoder('macintosh').decode(HIGH)], rare: new Set([...'ﬁﬂ']) },
  { name: 'windows-1250', chars: [...new TextDecoder('windows-1250').decode(HIGH)], rare: new Set() },
];

/** Whether the encoding is one of the three of Latin script (a file read in it holds few letters past ASCII). */
export function isLatinEncoding(name: string): name is LatinEncoding {
  return ENCODINGS.some((encoding) => encoding.name === name);
}

/** Bytes Windows-1252 leaves without a character: a file holding one is not Windows-1252. */
const UNDEFINED_IN_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

const isLower = (byte: number | undefined) => byte !== undefined && byte >= 0x61 && byte <= 0x7a;
const isUpper = (byte: number | undefined) => byte !== undefined && byte >= 0x41 && byte <= 0x5a;
const isLetter = (byte: number | undefined) => isLower(byte) || isUpper(byte);
const inWord = (byte: number | undefined) => isLetter(byte) || (byte !== undefined && byte >= 0x80);

/**
 * How likely a character is where a byte sits beside ASCII letters: a letter where letters go (1), a rare
 * one (0.3), a capital inside a word ("BŠckerei", "MŸller") or anything else between letters
 * ("Hauptstra§e", "Wroc³aw") not at all (-1); the apostrophe of "Joe’s" is one.
 */
function fit(char: string, rare: ReadonlySet<string>, before: number | undefined, after: number | undefined): number {
  // Inside a word: a letter, or another byte past ASCII (most likely a letter too: "Gł|ówny"), on each side.
  const between = inWord(before) && inWord(after);
  if (char === '’') return between ? 1 : 0;
  if (!/[\p{Ll}\p{Lu}]/u.test(char)) return between ? -1 : 0;
  const upper = char !== char.toLowerCase();
  if (upper ? (isLetter(before) && isLower(after)) || isLower(before) : isUpper(after)) return -1;
  return rare.has(char) ? 0.3 : 1;
}

/**
 * The encoding that reads the bytes beside letters best. Windows-1252 stays unless some byte cannot be its
 * (one it leaves undefined, or one it reads as a capital inside a word or a sign between letters): its
 * quotes and dashes beside a word („Zur Post“), º and Š, which another encoding reads as letters there,
 * are no evidence against it (found by a review). On a tie, Windows-1252, then Mac Roman.
 */
export function latinEncodingOf(bytes: Uint8Array): LatinEncoding {
  const scores = ENCODINGS.map(() => 0);
  let doubted = false;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at]!;
    if (byte < 0x80) continue;
    if (UNDEFINED_IN_1252.has(byte)) doubted = true;
    const [before, after] = [bytes[at - 1], bytes[at + 1]];
    if (!inWord(before) && !inWord(after)) continue;
    ENCODINGS.forEach(({ chars, rare }, index) => {
      const score = fit(chars[byte - 0x80]!, rare, before, after);
      if (index === 0 && score < 0) doubted = true;
      scores[index]! += score;
    });
  }
  if (!doubted) return 'windows-1252';
  let best = 0;
  for (let index = 1; index < scores.length; index++) if (scores[index]! > scores[best]!) best = index;
  return ENCODINGS[best]!.name;
}

/** A legacy encoding's guess (chardet's): where it says Windows-1252, the Latin encoding the bytes read best in. */
export function orLatin<T extends string>(guess: T, bytes: Uint8Array): T | LatinEncoding {
  return guess === 'windows-1252' ? latinEncodingOf(bytes) : guess;
}
