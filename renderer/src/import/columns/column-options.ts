import { regionName } from '../../countries.js';
import { DEFAULT_ADDRESS_SEPARATOR } from '../../../../server/imports/address.js';
import { PLACEHOLDERS } from '../../../../server/imports/placeholders.js';
import { MappingOptions } from '../../../../server/mappings/schemas.js';

/**
 * The column step's options (issue 12): the text between address lines and the words read as blank.
 * A saved mapping keeps them (`MappingOptions`, server/mappings/schemas.ts), only where they differ
 * from the defaults; the limits below are that schema's.
 */
export interface ColumnOptions {
  separator: string;
  placeholders: readonly string[];
  /** The ISO code of the locations' country where the file gives none (the upload's ?country=), or null. */
  country: string | null;
}

export const DEFAULT_OPTIONS: ColumnOptions = {
  separator: DEFAULT_ADDRESS_SEPARATOR,
  placeholders: PLACEHOLDERS,
  country: null,
};

const { separator, placeholders } = MappingOptions.properties;
export const MAX_SEPARATOR = separator.maxLength as number;
export const MAX_PLACEHOLDER = placeholders.items.maxLength as number;
export const MAX_PLACEHOLDERS = placeholders.maxItems as number;

/** Whether two placeholder lists hold the same words (compared as the rule compares them: without case). */
export function sameWords(a: readonly string[], b: readonly string[]): boolean {
  const key = (list: readonly string[]) =>
    [...new Set(list.map((word) => word.trim().toLowerCase()))].sort().join('\n');
  return key(a) === key(b);
}

/** What a saved mapping stores: only the options that are not the defaults. */
export function savedOptions(options: ColumnOptions): MappingOptions {
  const saved: MappingOptions = {};
  if (options.separator !== DEFAULT_ADDRESS_SEPARATOR) saved.separator = options.separator;
  if (!sameWords(options.placeholders, PLACEHOLDERS)) saved.placeholders = [...options.placeholders];
  if (options.country !== null) saved.country = options.country;
  return saved;
}

/** The options a saved mapping gives back: its own, else the defaults. */
export function optionsOf(saved: MappingOptions): ColumnOptions {
  return {
    separator: saved.separator ?? DEFAULT_ADDRESS_SEPARATOR,
    placeholders: saved.placeholders ?? PLACEHOLDERS,
    country: saved.country ?? null,
  };
}

/** A saved mapping's options in a few words ("address lines joined with “ / ”; NA kept as a value"), or ''. */
export function optionsSummary(saved: MappingOptions): string {
  const parts: string[] = [];
  if (saved.separator !== undefined) parts.push(`address lines joined with “${saved.separator}”`);
  if (saved.placeholders !== undefined) {
    const words = new Set(saved.placeholders.map((word) => word.toLowerCase()));
    const kept = PLACEHOLDERS.filter((word) => !words.has(word.toLowerCase()));
    const added = saved.placeholders.filter(
      (word) => !PLACEHOLDERS.some((own) => own.toLowerCase() === word.toLowerCase()),
    );
    if (kept.length > 0) parts.push(`${kept.join(', ')} kept as ${kept.length === 1 ? 'a value' : 'values'}`);
    if (added.length > 0) parts.push(`${added.join(', ')} read as empty`);
  }
  if (saved.country !== undefined) parts.push(`rows without a country in ${regionName(saved.country)}`);
  return parts.join('; ');
}
