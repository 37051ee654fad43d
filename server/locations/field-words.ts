// No import: the dashboard's history reads this too, and must not load the field rules' libraries with it.
/** The words for a field in a sentence, where its key would not do: one list for the history and the undo. */
const FIELD_WORDS: Partial<Record<string, string>> = {
  store_code: 'store code',
  google_place_id: 'Google place id',
  primary_category: 'primary category',
  zip: 'postal code',
};

/** What the phone rule says of a national number on a location of no country: the dashboard counts such rows. */
export const NEEDS_A_COUNTRY = 'needs a country';

/** A field as a sentence names it: "postal code" for zip, "phone" for phone. */
export const fieldInWords = (field: string): string => FIELD_WORDS[field] ?? field.replaceAll('_', ' ');
