import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeCsv } from '../../server/imports/csv-text.js';
import { sniffCsv } from '../../server/imports/sniff.js';
import { CP1252_HIGH, latinEncodingOf } from '../../server/imports/latin-encoding.js';
import { mixedEncodingLine, mixedEncodingWords } from '../../server/imports/mixed-encoding.js';

/** A file's lines, as Excel writes them (CRLF, a final line break). */
const lines = (...rows: string[]) => `${rows.join('\r\n')}\r\n`;

const GBP_HEADER =
  'Store code;Business name;Address line 1;Locality;Country / Region;Latitude;Longitude;Wednesday hours';
/** A GBP row as a French Excel writes it: two decimal commas, and split hours holding a comma, in every row. */
const gbpRow = (n: number, point = ',') =>
  `EU-${n};Maison Lumière ${n};${n} Rue de Rivoli;Paris;FR;48${point}85${n};2${point}35${n};09:00-12:00,14:00-18:00`;
const gbpRows = Array.from({ length: 12 }, (_, index) => gbpRow(10 + index));

/** A sheet exported by Agency Desk: commas, and the week's hours joined by semicolons in every row. */
const exportRow = (n: number) =>
  `ML-${n},Maison Lumière – Austin #${n},"10${n} Congress Ave, Suite ${n}",Austin,TX,US,30.28,-97.69,Mon 07:00-18:00; Tue 07:00-18:00; Wed 07:00-18:00; Thu 07:00-18:00; Fri 07:00-18:00; Sat 08:00-13:00`;
const exportRows = Array.from({ length: 12 }, (_, index) => exportRow(10 + index));

describe('sniffCsv: the delimiter that splits the most rows, and at least half', () => {
  it.each([
    [
      'a GBP sheet from Excel "CSV (semicolon)": a title above the header, decimal commas in every row -> semicolons',
      lines('Google Business Profile – bulk upload', GBP_HEADER, ...gbpRows),
      ';',
    ],
    ['the same without the title -> semicolons', lines(GBP_HEADER, ...gbpRows), ';'],
    [
      'the title with decimal points -> semicolons',
      lines(
        'Google Business Profile – bulk upload',
        GBP_HEADER,
        ...Array.from({ length: 12 }, (_, index) => gbpRow(10 + index, '.')),
      ),
      ';',
    ],
    [
      'a title and a note, then a blank line, above the header -> semicolons',
      lines('Filialliste Bluebird GmbH', 'Stand: 24.11.2026, 12 Filialen', '', GBP_HEADER, ...gbpRows),
      ';',
    ],
    [
      'a German Excel title padded to the sheet’s width, and a blank row of semicolons -> semicolons',
      lines('Filialliste – Stand 01.11.2026;;;;;;;', ';;;;;;;', GBP_HEADER, ...gbpRows),
      ';',
    ],
    [
      'a semicolon file whose addresses hold a bare comma ("Suite 4, Floor 2") -> semicolons',
      lines(
        'Nom;Adresse;Complément;Ville;Latitude;Longitude',
        ...Array.from(
          { length: 8 },
          (_, n) => `Café ${n};${n} rue de Rivoli;Suite ${n}, Floor 2;Paris;48,85${n};2,35${n}`,
        ),
      ),
      ';',
    ],
    [
      'an Agency Desk export: hours joined by semicolons in every row -> commas',
      lines('Store code,Name,Address,City,State,Country,Latitude,Longitude,Hours', ...exportRows),
      ',',
    ],
    [
      'a comma file where one address holds a semicolon -> commas',
      lines(
        'Name,Address,City,Country',
        'Acme Leeds,1 Briggate,Leeds,GB',
        'Acme York,5 Stonegate; rear entrance,York,GB',
        'Acme Hull,2 Whitefriargate,Hull,GB',
      ),
      ',',
    ],
    [
      'a comma file with a title above its header -> commas',
      lines('Store list – November', 'Name,Street,City', 'Acme Leeds,1 Briggate,Leeds', 'Acme York,5 Stonegate,York'),
      ',',
    ],
    [
      'Excel "Unicode Text": tabs, a title and decimal commas -> tabs',
      lines('Filialliste', 'Filiale\tOrt\tBreitengrad\tLängengrad', 'Bluebird Mitte\tBerlin\t52,52\t13,405'),
      '\t',
    ],
    ['name|city -> pipes', lines('name|city', 'A|B', 'C|D'), '|'],
    [
      'a trailing empty line and a French file of 48,8556;2,3522 -> semicolons',
      'Nom;Lat;Long\n\nCafé;48,8556;2,3522\n\n\n',
      ';',
    ],
    ['one column -> a comma, as when no delimiter splits a row', lines('Name', 'Acme Leeds', 'Acme York'), ','],
    // A review's cases (2026-11-25): a delimiter must split at least half the rows, and the rows it splits come first.
    [
      'one column with a semicolon in one name -> a comma, not "Pizza" and "Pasta"',
      lines('name', 'Café Central', 'Pizza; Pasta'),
      ',',
    ],
    ['one column with a pipe in one name -> a comma', lines('name', 'Café Central', 'A | B'), ','],
    [
      'an Excel comma file whose later rows drop their empty cells, with "; " in its hours -> a comma',
      lines(
        'Store code,Name,Address,City,Hours,Phone,Website,Labels',
        ...Array.from({ length: 40 }, (_, i) =>
          i < 16
            ? `S${i},N${i},1 Main,Austin,Mon-Fri 9:00-17:00; Sat 10:00-14:00,,,`
            : `S${i},N${i},1 Main,Austin,Mon-Fri 9:00-17:00; Sat 10:00-14:00`,
        ),
      ),
      ',',
    ],
    [
      'a tab file of uneven rows, commas in its addresses -> a tab',
      lines(
        'name\taddress\tcity\tphone',
        ...Array.from({ length: 20 }, (_, i) =>
          i % 2 ? `N${i}\t1 Main, Suite ${i}\tAustin` : `N${i}\t1 Main\tAustin\t555`,
        ),
      ),
      '\t',
    ],
    ['a header alone, of semicolons -> a semicolon', 'name;city\n', ';'],
    ['a header of semicolons and one row of one value -> a semicolon (half the rows)', 'name;city\nrow\n', ';'],
  ])('%s', (_, text, delimiter) => {
    expect(sniffCsv(text).delimiter).toBe(delimiter);
  });

  it('a quoted value over several lines opens with the delimiter only: hours pasted from Google Maps stay in commas (found by a probe)', () => {
    const rows = (cell: string) =>
      [
        'Store code,Name,Address,City,Country,Hours',
        ...[1, 2, 3, 4, 5].map((n) => `S-${n},Shop ${n},${n} Main St,Boston,US,${cell}`),
      ].join('\n');
    // Google Maps' copy: a day and its hours a line, a tab between them.
    expect(sniffCsv(rows('"Monday\t9 AM–5 PM\nTuesday\t9 AM–5 PM\nWednesday\tClosed"')).delimiter).toBe(',');
    expect(sniffCsv(rows('"Mo 9-17;\nDi 9-17;\nMi 9-17"')).delimiter).toBe(',');
    const semicolons = [
      'Filialnummer;Name;Adresse;Ort',
      ...[1, 2, 3].map((n) => `${n};Laden ${n};"Hauptstraße ${n},\nHinterhaus, 2. OG";Berlin`),
    ].join('\n');
    expect(sniffCsv(semicolons).delimiter).toBe(';');
  });

  it('gives the line ending the file uses', () => {
    expect(sniffCsv(lines(GBP_HEADER, gbpRow(1)))).toEqual({ delimiter: ';', linebreak: '\r\n', mixed: false });
    expect(sniffCsv('name,city\nA,B\n').linebreak).toBe('\n');
    // Excel's \r\n rows with \n inside a quoted cell are not mixed; a \r\n header above \n rows is.
    expect(sniffCsv('name,note\r\nA,"one\ntwo"\r\n')).toMatchObject({ linebreak: '\r\n', mixed: false });
    expect(sniffCsv('name,note\r\nA,"x"\nB,"y"\n')).toMatchObject({ linebreak: '\n', mixed: true });
  });

  it('reads the gbp-bulk-upload-eu.csv fixture (Windows-1252) as semicolons', () => {
    const decoded = decodeCsv(
      readFileSync(new URL('../fixtures/csv/gbp-bulk-upload-eu.csv', import.meta.url)),
      undefined,
    );
    if (!('text' in decoded)) throw new Error(decoded.message);
    expect(decoded.text.split('\r\n')[0]).toBe('Google Business Profile – bulk upload');
    expect(sniffCsv(decoded.text)).toEqual({ delimiter: ';', linebreak: '\r\n', mixed: false });
  });
});

describe('decodeCsv: a UTF-8 file with a stray byte of another encoding (found by a probe)', () => {
  const utf8 = (text: string) => Buffer.from(text, 'utf8');
  const cp1252 = (text: string) => Buffer.from(text, 'latin1');
  /** The line mixedEncodingLine names in a file that would be read as Windows-1252. */
  const mixedIn1252 = (bytes: Uint8Array) => mixedEncodingLine(bytes, 'windows-1252');

  it('is refused, naming the line of the stray byte, instead of garbling every accent of the file', () => {
    const bytes = Buffer.concat([
      utf8('Name,City\nBäckerei Müller,Besançon\n'),
      cp1252('Joe'),
      Buffer.from([0x92]),
      utf8('s Diner,Zürich\r\nCafé,Köln\n'),
    ]);
    expect(mixedIn1252(bytes)).toBe(3);
    expect(decodeCsv(bytes, undefined)).toEqual({ message: mixedEncodingWords(3) });
  });

  it('a Windows-1252 file (every accent one byte) and a UTF-8 one are no mix', () => {
    const legacy = cp1252('Name,City\nBäckerei Müller,Besançon\nCafé,Köln\n');
    expect(mixedIn1252(legacy)).toBeNull();
    expect(decodeCsv(legacy, undefined)).toEqual({ text: 'Name,City\nBäckerei Müller,Besançon\nCafé,Köln\n' });
    expect(mixedIn1252(utf8('Name\nBäckerei\n'))).toBeNull();
  });

  it('one UTF-8 letter beside one stray byte is a mix: ties were read as Windows-1252 or Mac Roman (found by a probe)', () => {
    const stray = Buffer.from([0x92]);
    const umlaut = Buffer.concat([utf8('Name,City\nBäckerei,Joe'), stray, utf8('s\n')]);
    expect(mixedIn1252(umlaut)).toBe(2);
    expect(decodeCsv(umlaut, undefined)).toEqual({ message: mixedEncodingWords(2) });
    const eszett = Buffer.concat([utf8('Name,City\nJoe'), stray, utf8('s Diner,Straßburg\n')]);
    expect(decodeCsv(eszett, undefined)).toEqual({ message: mixedEncodingWords(2) });
    // Fewer UTF-8 letters than stray bytes, a dash or an emoji: only UTF-8 writes them so.
    expect(
      mixedIn1252(Buffer.concat([utf8('Name\nCafé,Joe'), stray, utf8('s Bar'), stray, utf8('s\nJoe'), stray])),
    ).toBe(2);
    expect(mixedIn1252(Buffer.concat([utf8('Name\nA – B\nJoe'), stray, stray]))).toBe(3);
    expect(mixedIn1252(Buffer.concat([utf8('Name\nPizza 🍕 Joe'), stray, utf8('s\n')]))).toBe(2);
    // "Ã©" in a Windows-1252 file is C3 A9, UTF-8's é read as Windows-1252 and saved again: a mix too.
    expect(mixedIn1252(cp1252('Name\nCafÃ© é è à\n'))).toBe(2);
  });

  it('a UTF-8 letter touching a stray byte is a mix: "Café’s" was stored as "CafÃ©’s"', () => {
    const touching = Buffer.concat([utf8('Name,City\nCafé'), Buffer.from([0x92]), utf8('s,Paris\n')]);
    expect(mixedIn1252(touching)).toBe(2);
    expect(decodeCsv(touching, undefined)).toEqual({ message: mixedEncodingWords(2) });
    // The stray byte first, the letter after it: "’é" (0x92 C3 A9), and a dash touching one ("–"+0x85).
    expect(mixedIn1252(Buffer.concat([utf8('Name\nJoe'), Buffer.from([0x92]), utf8('é\n')]))).toBe(2);
    expect(mixedIn1252(Buffer.concat([utf8('Name\nA\nB –'), Buffer.from([0x85]), utf8('\n')]))).toBe(3);
  });

  it("a Latin code page's own letters that happen to form UTF-8 are no mix: none is a letter only UTF-8 writes", () => {
    const bytes = (...parts: (string | number[])[]) =>
      Buffer.concat(parts.map((part) => (typeof part === 'string' ? cp1252(part) : Buffer.from(part))));
    // Windows-1250's "UL. PÓŁNOCNA, Łódź": Ó Ł is D3 A3, U+04E3 (Cyrillic).
    const polish = bytes('Name\nUL. P', [0xd3, 0xa3], 'NOCNA, ', [0xa3, 0xf3, 0x64, 0x9f], '\n');
    expect(mixedEncodingLine(polish, 'windows-1250')).toBeNull();
    // Windows-1252's "« Le Café »" with no-break spaces: é, the space and » are E9 A0 BB, U+983B (CJK).
    expect(mixedIn1252(cp1252('Name\n«\u00a0Le Café\u00a0»\n'))).toBeNull();
    // "NESCAFÉ® Bar" and "Crème": É® is C9 AE, U+026E (IPA).
    expect(mixedIn1252(cp1252('Name\nNESCAFÉ® Bar,Crème\n'))).toBeNull();
    // Mac Roman's “École” and ”Café”: “ É is D2 83, U+0483 (Cyrillic).
    const macRoman = bytes('Name\n', [0xd2, 0x83], 'cole', [0xd3], ' Caf', [0x8e], '\n');
    expect(mixedEncodingLine(macRoman, 'macintosh')).toBeNull();
    // Capitals touching signs and quotes, in runs of several bytes, with a letter elsewhere that is no
    // UTF-8 (Müller's ü): "« CAFÉ »" with no-break spaces (C9 A0 BB: U+0260, then a byte that is none),
    // "ÉTÉ…»" (C9 85: U+0245), "CAFFÈ”»" (C8 94: U+0214), "NESCAFÉ®»", "AÇÃO", "MÜLLER’S" (a review
    // found the first two refused, its test having written … and ” as Latin-1 could not). Left: "Å°" is
    // C5 B0, UTF-8's Ű, a letter of Hungarian: such a file is still told a mix.
    for (const text of ['«\u00a0CAFÉ\u00a0»', 'ÉTÉ…»', 'CAFFÈ”»', 'NESCAFÉ®»', 'AÇÃO', 'MÜLLER’S', 'Café » Bar']) {
      const bytes = codePage(`Name\n${text}\nMüller\n`, 'windows-1252');
      expect(mixedEncodingLine(bytes, 'windows-1252'), text).toBeNull();
    }
    // Mac Roman's guillemets touching a capital: "«Über»" (C7 86: U+01C6), "«École»".
    for (const text of ['«Über»', '«École»', '“Café”']) {
      expect(mixedEncodingLine(codePage(`Name\n${text}\nMüller\n`, 'macintosh'), 'macintosh'), text).toBeNull();
    }
    // Windows-1250's "ŁÓDŹ – ŚRÓDMIEŚCIE" and "Plzeň" (Ó is D3, the dash 96).
    const capitals = codePage('Name\nŁÓDŹ – ŚRÓDMIEŚCIE\nPlzeň\n', 'windows-1250');
    expect(mixedEncodingLine(capitals, 'windows-1250')).toBeNull();
  });

  it('a legacy file of two bytes a letter is read in its encoding: GBK\'s "3楼" is C2 A5 (UTF-8\'s ¥) by chance', () => {
    const text = 'Name,Address\n建国店,北京市朝阳区建国路88号3楼\n天河店,广州市天河区天河路385号5楼\n';
    const bytes = encoded(text, 'gbk');
    expect(decodeCsv(bytes, undefined)).toEqual({ text });
    expect(mixedEncodingLine(bytes, 'gb18030')).toBeNull();
    // Only a file read as a Latin code page is a mix for one such character.
    expect(mixedIn1252(bytes)).toBe(2);
  });

  it('counts lines as the sheet does: CRLF, LF and a Mac CR alone', () => {
    const bytes = Buffer.concat([utf8('a\r\nb\rç\nü ö\n'), Buffer.from([0x92])]);
    expect(mixedIn1252(bytes)).toBe(5);
  });
});

describe("decodeCsv: Excel for Mac's CSV, Mac Roman (found by a probe)", () => {
  const macRoman = (text: string) =>
    Buffer.from([...text].map((char) => ({ ä: 0x8a, ü: 0x9f, ç: 0x8d, é: 0x8e })[char] ?? char.charCodeAt(0)));

  it('is read as Mac Roman, not as Windows-1252 ("BŠckerei MŸller", a control character for ç)', () => {
    const bytes = macRoman('Name,City\rBäckerei Müller,Zürich\rCafé,Besançon\r');
    expect(latinEncodingOf(bytes)).toBe('macintosh');
    expect(decodeCsv(bytes, undefined)).toEqual({ text: 'Name,City\rBäckerei Müller,Zürich\rCafé,Besançon\r' });
  });

  it('capitalised words, ß, é, í and ñ tell Mac Roman too; the same words in Windows-1252 stay so (found by a probe)', () => {
    const high = Uint8Array.from({ length: 128 }, (_, at) => 0x80 + at);
    const encoded = (text: string, encoding: string) => {
      const table = [...new TextDecoder(encoding).decode(high)];
      return Buffer.from(
        [...text].map((char) => (table.includes(char) ? 0x80 + table.indexOf(char) : char.charCodeAt(0))),
      );
    };
    for (const text of [
      'Bäckerei Müller,München',
      'Café,Köln',
      'Hauptstraße 1',
      'Panadería Muñoz',
      'Joe’s Pizza, Zürich',
    ]) {
      expect(latinEncodingOf(encoded(text, 'macintosh')), text).toBe('macintosh');
      expect(decodeCsv(encoded(`Name\n${text}\n`, 'macintosh'), undefined)).toEqual({ text: `Name\n${text}\n` });
      expect(latinEncodingOf(encoded(text, 'windows-1252')), text).not.toBe('macintosh');
    }
  });

  it("Central Europe's Excel CSV (Windows-1250) is read so, not as £ód\u0178 and Wroc³aw; Western files stay Windows-1252", () => {
    const high = Uint8Array.from({ length: 128 }, (_, at) => 0x80 + at);
    const cp1250 = [...new TextDecoder('windows-1250').decode(high)];
    const encoded = (text: string) =>
      Buffer.from([...text].map((char) => (cp1250.includes(char) ? 0x80 + cp1250.indexOf(char) : char.charCodeAt(0))));
    // Czech whose letters Windows-1252 reads as its own (Plzeň as Plzeò) stays Windows-1252: nothing in the
    // bytes tells; the dashboard's encoding choice reads it right.
    for (const text of ['Łódź, Wrocław, Gdańsk', 'Kraków Główny', 'Sklep Łódź, ul. Piotrkowska']) {
      expect(latinEncodingOf(encoded(text)), text).toBe('windows-1250');
      expect(decodeCsv(encoded(`Name\n${text}\n`), undefined)).toEqual({ text: `Name\n${text}\n` });
    }
    const westernTexts = [
      'Crème brûlée, Niño, São João, Ærø, Åsa, ¿Qué?',
      'Bäckerei Müller, Straße',
      // Found by a review: quotes and signs beside words, and Š, read as letters by the others.
      'Gasthaus „Zur Post“, Café „Sonne“, München',
      'Bar España, Calle Mayor nº 5, 1ª planta, Muñoz',
      'Garage Škoda, Crème Brûlée',
    ];
    const cp1252 = (text: string) =>
      Buffer.from(
        [...text].map((char) => (CP1252_HIGH.includes(char) ? 0x80 + CP1252_HIGH.indexOf(char) : char.charCodeAt(0))),
      );
    for (const text of westernTexts) {
      expect(latinEncodingOf(cp1252(text)), text).toBe('windows-1252');
      expect(decodeCsv(cp1252(`Name\n${text}\n`), undefined)).toEqual({ text: `Name\n${text}\n` });
    }
  });

  it('a Windows-1252 file with Š and Ÿ where Czech and French write them stays Windows-1252', () => {
    const text = "Name,City\nŠkoda Servis,Košice\nL'Haÿ-les-Roses,ŸVELINES\n";
    const cp1252 = Buffer.from([...text].map((char) => ({ Š: 0x8a, š: 0x9a, Ÿ: 0x9f })[char] ?? char.charCodeAt(0)));
    expect(latinEncodingOf(cp1252)).not.toBe('macintosh');
    expect(decodeCsv(cp1252, undefined)).toEqual({ text });
  });
});

/** The text in a legacy encoding of one or two bytes a character, by its decoder's table (Node has no encoder). */
/** Text in a code page of one byte a character, each character that is none of its own refused. */
function codePage(text: string, label: 'windows-1252' | 'windows-1250' | 'macintosh'): Buffer {
  const high =
    label === 'windows-1252'
      ? [...CP1252_HIGH, ...Array.from({ length: 96 }, (_, at) => String.fromCharCode(0xa0 + at))]
      : [...new TextDecoder(label).decode(Uint8Array.from({ length: 128 }, (_, at) => 0x80 + at))];
  return Buffer.from(
    [...text].map((char) => {
      if (char < '\x80') return char.charCodeAt(0);
      const at = high.indexOf(char);
      if (at < 0) throw new Error(`${char} is not a character of ${label}`);
      return 0x80 + at;
    }),
  );
}

function encoded(text: string, label: string): Buffer {
  const decoder = new TextDecoder(label);
  const bytesOf = new Map<string, number[]>();
  for (let lead = 0x81; lead < 0xff; lead++) {
    for (let trail = 0x40; trail < 0xff; trail++) {
      const char = decoder.decode(new Uint8Array([lead, trail]));
      if (!bytesOf.has(char)) bytesOf.set(char, [lead, trail]);
    }
  }
  return Buffer.from([...text].flatMap((char) => (char < '\x80' ? [char.charCodeAt(0)] : bytesOf.get(char)!)));
}
