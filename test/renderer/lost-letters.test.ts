import { describe, expect, it } from 'vitest';
import { bufferSource, jobMessages } from './csv-files.js';

/** Found by a probe: Excel's "CSV" on Windows writes "?" for each letter its code page lacks ("Łódź" as "?ód?"). */
async function readFile(text: string) {
  const { job, messages } = jobMessages();
  await job.read({ ...bufferSource(new TextEncoder().encode(text)), name: 'stores.csv' });
  const read = messages.at(-1);
  if (read?.type !== 'read') throw new Error(`expected read, got ${read?.type}`);
  return read.file;
}

describe('letters lost as "?" when the file was saved', () => {
  it('counts the rows with a ? between letters or starting a word, with their lines', async () => {
    const file = await readFile('Name,City\n?ód? Sklep,?ód?\nCafé Central,Wien\nCaf? M?ller,M?nchen\n');
    expect(file.lostLetters).toEqual({ count: 2, lines: [2, 4], example: '?ód? Sklep' });
  });

  it('a question mark of a sentence, a placeholder or a URL query is no lost letter', async () => {
    const file = await readFile(
      'Name,City,Website\nOpen late?,?,https://x.example/page?id=4\nWhy Not? Bar,Leeds,www.x.example/a?b=c\n',
    );
    expect(file.lostLetters).toEqual({ count: 0, lines: [], example: '' });
  });
});
