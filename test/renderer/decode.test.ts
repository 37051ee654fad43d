import { describe, expect, it } from 'vitest';
import { bomOf, decodeSource, guessLegacyEncoding, notCsvReason } from '../../renderer/src/import/decode.js';
import { bufferSource, decodeFixture, fixtureText } from './csv-files.js';
import { mixedEncodingWords, strayByteWords } from '../../server/imports/mixed-encoding.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('decodeSource', () => {
  it('reads UTF-8 without a BOM', async () => {
    const decoded = await decodeSource(bufferSource(utf8('name,city\nCafé,Zürich\n')));
    expect(decoded).toEqual({ ok: true, text: 'name,city\nCafé,Zürich\n', encoding: 'utf-8' });
  });

  it('strips a UTF-8 BOM', async () => {
    const { text, encoding } = await fixtureText('semicolon-eu.csv');
    expect(encoding).toBe('utf-8');
    expect(text.startsWith('Name;Straße;PLZ')).toBe(true);
  });

  it('detects and decodes a Windows-1252 spreadsheet export', async () => {
    const { text, encoding } = await fixtureText('windows-1252.csv');
    expect(encoding).toBe('windows-1252');
    expect(text).toContain('Bäckerei Müller,Königstraße 5,Stuttgart,Baden-Württemberg');
    expect(text).toContain('Smørrebrød Hus,Østergade 7,København');
    // Node 20.18.3+ decodes 0x80-0x9F (’, €, “) as Latin-1 (nodejs/node#60888); Chromium follows the
    // WHATWG table, and the end-to-end import checks ’ there.
    expect(text).toMatch(/Café Crème,12 Rue de l.Église,Besançon/u);
    expect(text).not.toContain('\uFFFD');
  });

  it('reads UTF-16 with a BOM (Excel "Unicode Text")', async () => {
    const body = 'name\tcity\nCafé\tZürich\n';
    const bytes = new Uint8Array([
      0xff,
      0xfe,
      ...new Uint8Array(new Uint16Array([...body].map((c) => c.charCodeAt(0))).buffer),
    ]);
    const decoded = await decodeSource(bufferSource(bytes));
    expect(decoded).toEqual({ ok: true, text: body, encoding: 'utf-16le' });
  });

  it('keeps a character whole when a slice boundary cuts through it', async () => {
    const text = `name\n${'é'.repeat(70_000)}\n`;
    for (const sliceBytes of [65_536, 65_537, 65_539, 100_001]) {
      expect(await decodeSource(bufferSource(utf8(text)), { sliceBytes })).toEqual({
        ok: true,
        text,
        encoding: 'utf-8',
      });
    }
  });

  it('falls back to Windows-1252 when invalid UTF-8 only appears late in the file', async () => {
    const ascii = `name,city\n${'Plain Row,Austin\n'.repeat(6000)}`;
    const bytes = new Uint8Array([
      ...utf8(ascii),
      ...[0x43, 0x61, 0x66, 0xe9, 0x2c, 0x4e, 0xee, 0x6d, 0x65, 0x73, 0x0a],
    ]);
    const decoded = await decodeSource(bufferSource(bytes));
    expect(decoded.ok && decoded.encoding).toBe('windows-1252');
    expect(decoded.ok && decoded.text.endsWith('Café,Nîmes\n')).toBe(true);
  });

  it('refuses a UTF-8 file with one stray Windows-1252 byte, naming its line, as the server does', async () => {
    // Found by a probe: read as Windows-1252, every other accent of the file was garbled.
    const bytes = new Uint8Array([...utf8('name,city\nBäckerei,Zürich\nJoe'), 0x92, ...utf8('s,Köln\n')]);
    expect(await decodeSource(bufferSource(bytes))).toEqual({ ok: false, message: mixedEncodingWords(3) });
  });

  it("names the line of a stray byte in a file marked UTF-8 (Excel's CSV UTF-8), as the server does (a walk)", async () => {
    const bytes = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...utf8('name,city\nBäckerei,Köln\nCaf'),
      0xe9,
      ...utf8(',Paris\n'),
    ]);
    expect(await decodeSource(bufferSource(bytes))).toEqual({ ok: false, message: strayByteWords(3) });
  });

  it('refuses one UTF-8 letter beside one stray byte, as the server does (ties were read as Windows-1252)', async () => {
    const umlaut = new Uint8Array([...utf8('name,city\nBäckerei,Joe'), 0x92, ...utf8('s\n')]);
    expect(await decodeSource(bufferSource(umlaut))).toEqual({ ok: false, message: mixedEncodingWords(2) });
    const eszett = new Uint8Array([...utf8('name,city\nJoe'), 0x92, ...utf8('s Diner,Straßburg\n')]);
    expect(await decodeSource(bufferSource(eszett))).toEqual({ ok: false, message: mixedEncodingWords(2) });
    // The letter touching the stray byte ("Café’s"): read as Windows-1252 before, "CafÃ©’s".
    const touching = new Uint8Array([...utf8('name,city\nCafé'), 0x92, ...utf8('s,Paris\n')]);
    expect(await decodeSource(bufferSource(touching))).toEqual({ ok: false, message: mixedEncodingWords(2) });
  });

  it('reads Excel for Mac\'s CSV as Mac Roman, as the server does (not "BŠckerei MŸller")', async () => {
    const bytes = new Uint8Array(
      [...'name,city\rBäckerei Müller,Besançon\r'].map(
        (char) => ({ ä: 0x8a, ü: 0x9f, ç: 0x8d })[char] ?? char.charCodeAt(0),
      ),
    );
    expect(await decodeSource(bufferSource(bytes))).toEqual({
      ok: true,
      text: 'name,city\rBäckerei Müller,Besançon\r',
      encoding: 'macintosh',
    });
  });

  it('reads Central Europe\'s Excel CSV as Windows-1250, as the server does (not "£ód\u0178")', async () => {
    const cp1250 = [...new TextDecoder('windows-1250').decode(Uint8Array.from({ length: 128 }, (_, at) => 0x80 + at))];
    const text = 'name,city\nSklep Łódź,Wrocław\n';
    const bytes = new Uint8Array(
      [...text].map((char) => (cp1250.includes(char) ? 0x80 + cp1250.indexOf(char) : char.charCodeAt(0))),
    );
    expect(await decodeSource(bufferSource(bytes))).toEqual({ ok: true, text, encoding: 'windows-1250' });
  });

  it('decodes in the encoding the user picks', async () => {
    const decoded = await decodeSource(bufferSource(utf8('name\nCafé\n')), { forced: 'windows-1252' });
    expect(decoded).toEqual({ ok: true, text: 'name\nCafÃ©\n', encoding: 'windows-1252' });
  });

  it('refuses an empty file', async () => {
    const decoded = await decodeFixture('empty.csv');
    expect(decoded.ok).toBe(false);
    expect(!decoded.ok && decoded.message).toMatch(/empty/);
  });

  it('refuses an Excel workbook and says how to save it as CSV', async () => {
    const decoded = await decodeFixture('workbook.xlsx');
    expect(!decoded.ok && decoded.message).toMatch(/Excel workbook.*Save As > CSV/);
  });

  it.each([
    ['a lone surrogate', [0xff, 0xfe, 0x6e, 0x00, 0x0a, 0x00, 0x41, 0x00, 0x00, 0xd8, 0x0a, 0x00]],
    ['an odd last byte', [0xff, 0xfe, 0x6e, 0x00, 0x0a, 0x00, 0x41, 0x00, 0x42]],
    ['a lone surrogate, big-endian', [0xfe, 0xff, 0x00, 0x6e, 0x00, 0x0a, 0xdc, 0x00]],
  ])('refuses UTF-16 that its byte order mark names but that holds %s, rather than read U+FFFD', async (_, bytes) => {
    const decoded = await decodeSource(bufferSource(new Uint8Array(bytes)));
    expect(!decoded.ok && decoded.message).toMatch(/cannot be decoded as UTF-16 [LB]E: some bytes are not valid/);
  });

  it('refuses a broken sequence of the multi-byte encoding the user picks, rather than read U+FFFD', async () => {
    // Shift JIS: 0x82 starts a two-byte character; a line break cannot end it.
    const decoded = await decodeSource(bufferSource(new Uint8Array([0x6e, 0x0a, 0x82, 0x0a])), {
      forced: 'shift_jis',
    });
    expect(!decoded.ok && decoded.message).toMatch(/cannot be decoded as Shift JIS/);
  });

  it('reads as Windows-1252 a file guessed to be Shift JIS that a byte breaks, for the person to choose its encoding', async () => {
    const kana: number[] = [];
    for (let i = 0; i < 400; i++) kana.push(0x82, 0xa0 + 2 * (i % 40));
    const bytes = new Uint8Array([...new TextEncoder().encode('name,city\n'), ...kana, 0x0a, 0x41, 0x2c, 0x82, 0x0a]);
    expect(guessLegacyEncoding(bytes)).toBe('shift_jis');
    const decoded = await decodeSource(bufferSource(bytes));
    expect(decoded.ok && decoded.encoding).toBe('windows-1252');
  });

  it('refuses a file that says UTF-8 but is not', async () => {
    const decoded = await decodeSource(
      bufferSource(new Uint8Array([0xef, 0xbb, 0xbf, 0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xff, 0xfe, 0x41])),
    );
    expect(!decoded.ok && decoded.message).toBe(strayByteWords(2));
  });
});

describe('notCsvReason', () => {
  it('accepts text and refuses binary data, PDFs and images', () => {
    expect(notCsvReason(utf8('name,city\n'))).toBeNull();
    expect(notCsvReason(new Uint8Array([0x6e, 0x00, 0x61, 0x6d, 0x65, 0x01, 0x02, 0x03]))).toMatch(/not text/);
    expect(notCsvReason(utf8('%PDF-1.7\n'))).toMatch(/PDF/);
    expect(notCsvReason(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toMatch(/image/);
  });
});

describe('bomOf and guessLegacyEncoding', () => {
  it('names the encoding a BOM declares', () => {
    expect(bomOf(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toEqual({ encoding: 'utf-8', length: 3 });
    expect(bomOf(new Uint8Array([0xfe, 0xff, 0x00, 0x41]))).toEqual({ encoding: 'utf-16be', length: 2 });
    expect(bomOf(utf8('name'))).toBeNull();
  });

  it('reads Latin-script legacy text as Windows-1252', () => {
    const german = Uint8Array.from('Bäckerei Müller;Königstraße 5;München\n'.repeat(3), (c) => c.charCodeAt(0));
    expect(guessLegacyEncoding(german)).toBe('windows-1252');
  });
});
