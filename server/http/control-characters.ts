// C0 controls and DEL but tab and line breaks (a sheet's cell may hold those), and the C1 controls (what a
// file in another encoding read as Windows-1252 leaves: Mac Roman's ç as U+008D), never meant in a name or
// a listing.
// eslint-disable-next-line no-control-regex -- finding control characters is this expression's purpose
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/**
 * The one rule on control characters, and its words everywhere: a location's fields (locations/fields.ts)
 * and the names of the 'plain-text' format (http/schemas.ts), in the API, the CLI and the dashboard's forms.
 * "holds the control character U+0000" for the first one of the text, or undefined when it holds none.
 * A module of its own, importing nothing: the dashboard bundles it.
 */
export function controlCharacterWords(text: string): string | undefined {
  const control = CONTROL.exec(text)?.[0];
  return control === undefined
    ? undefined
    : `holds the control character U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

const CONTROLS = new RegExp(CONTROL.source, 'g');

/** The text with each character the rule above refuses made a space: a dropped file's name, for the trail. */
export function withoutControlCharacters(text: string): string {
  return text.replace(CONTROLS, ' ');
}

// Blanks, and what is drawn as nothing: direction marks, zero-width spaces and joiners, the byte order
// mark, variation selectors, the Hangul fillers (Unicode's default-ignorable code points).
const NOTHING_SHOWN = /^[\s\p{Default_Ignorable_Code_Point}]*$/u;

/** A name that shows nothing: "  ", or only direction marks. Such a name is refused as blank. */
export function isBlank(text: string): boolean {
  return NOTHING_SHOWN.test(text);
}
