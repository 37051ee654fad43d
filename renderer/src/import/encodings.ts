/** The encodings the import offers; TextDecoder knows them all (WHATWG Encoding). */
export const TEXT_ENCODINGS = {
  'utf-8': 'UTF-8',
  'windows-1252': 'Windows-1252 (Western, Latin-1)',
  'windows-1250': 'Windows-1250 (Central European)',
  'windows-1251': 'Windows-1251 (Cyrillic)',
  macintosh: 'Mac Roman (Excel for Mac before 2016)',
  'utf-16le': 'UTF-16 LE',
  'utf-16be': 'UTF-16 BE',
  shift_jis: 'Shift JIS (Japanese)',
  gb18030: 'GB18030 (Chinese)',
  big5: 'Big5 (Traditional Chinese)',
  'euc-kr': 'EUC-KR (Korean)',
} as const;
export type TextEncodingName = keyof typeof TEXT_ENCODINGS;
