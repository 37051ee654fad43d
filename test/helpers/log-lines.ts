import { Writable } from 'node:stream';

/** One line of the server's JSON log (pino's). */
export type LogLine = { level: number; msg: string } & Record<string, unknown>;

/**
 * A stream for the app's logger (`logger: { level, stream }`) that keeps each line it is given: as text
 * (`raw`) and parsed (`lines`). `clear()` forgets them, before the requests a test looks at.
 */
export function logLines(): { stream: Writable; lines: LogLine[]; raw: string[]; clear: () => void } {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line.trim() === '') continue;
        raw.push(line);
        lines.push(JSON.parse(line) as LogLine);
      }
      done();
    },
  });
  const clear = () => {
    lines.length = 0;
    raw.length = 0;
  };
  return { stream, lines, raw, clear };
}
