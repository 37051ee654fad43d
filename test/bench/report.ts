/**
 * One measured figure of `npm run bench`, printed beside its floor: the same work done the most direct
 * way in the same run on the same machine (issue 2, "Speed"). Benchmarks report; tests never assert timings.
 */
export interface Figure {
  /** What was measured, in a reader's words. */
  name: string;
  value: number;
  unit: string;
  /** The floor measured in this run, in the same unit, when the figure has one. */
  floor?: number;
  /** How the floor was made, e.g. "JSON.parse + one-transaction insert, in-process". */
  floorLabel?: string;
  /** The target in words, e.g. "<= 1.3x floor" or "< 100 ms". */
  target?: string;
  /** Whether the target holds; undefined when the figure is only printed. */
  pass?: boolean;
}

export type Record = (figure: Figure) => void;

/** A bench module's default export. */
export type Bench = (record: Record) => Promise<void>;

/** The middle value (runs alternate with their floors': the median is the figure least moved by load). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
