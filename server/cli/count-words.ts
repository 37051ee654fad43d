/**
 * "1 client", "15 locations": a count with its noun, singular for exactly one. `format` writes the
 * number (the desktop's menus group digits; the CLI prints them plain, for scripts that read it).
 */
export function countWords(count: number, one: string, many = `${one}s`, format: (count: number) => string = String) {
  return `${format(count)} ${count === 1 ? one : many}`;
}
