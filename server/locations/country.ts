import countries from 'i18n-iso-countries';
import de from 'i18n-iso-countries/langs/de.json' with { type: 'json' };
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import es from 'i18n-iso-countries/langs/es.json' with { type: 'json' };
import fr from 'i18n-iso-countries/langs/fr.json' with { type: 'json' };
import it from 'i18n-iso-countries/langs/it.json' with { type: 'json' };
import nl from 'i18n-iso-countries/langs/nl.json' with { type: 'json' };
import pt from 'i18n-iso-countries/langs/pt.json' with { type: 'json' };

// Country names in the languages agencies' files come in most (the sheets of Europe and the Americas).
const LOCALES = [en, de, fr, es, it, nl, pt];
for (const locale of LOCALES) countries.registerLocale(locale);

// ISO 3166-1 reserves UK for the United Kingdom (alpha-2 GB): unambiguous, and common in sheets. The
// parts of a country that sheets put in the country column (the UK's nations, the Crown dependencies and
// overseas parts that share their state's postal system) are that country.
const EXCEPTIONS: Record<string, string> = {
  UK: 'GB',
  'GREAT BRITAIN': 'GB',
  ENGLAND: 'GB',
  SCOTLAND: 'GB',
  WALES: 'GB',
  'NORTHERN IRELAND': 'GB',
  'UNITED STATES OF AMERICA': 'US',
  'U.S.': 'US',
  'U.S.A.': 'US',
  HOLLAND: 'NL',
  'THE NETHERLANDS': 'NL',
  // The short names sheets use where the library has only the long ones (a walk's "États-Unis" was refused).
  'ÉTATS-UNIS': 'US',
  'ETATS-UNIS': 'US',
  "ETATS-UNIS D'AMERIQUE": 'US',
  'STATI UNITI': 'US',
  'ESTADOS UNIDOS DE AMÉRICA': 'US',
  'ESTADOS UNIDOS DE AMERICA': 'US',
  EEUU: 'US',
  'EE.UU.': 'US',
  'EE. UU.': 'US',
  'GRANDE-BRETAGNE': 'GB',
  'GRAN BRETAÑA': 'GB',
  'GRAN BRETAGNA': 'GB',
  GROSSBRITANNIEN: 'GB',
  'GROOT-BRITTANNIË': 'GB',
};

const known = new Map<string, string | null>();

/**
 * ISO 3166-1 alpha-2 (upper case) for an alpha-2, alpha-3 or numeric code or a country's name in one of
 * the registered languages; null when the text names no country.
 */
export function countryCode(text: string): string | null {
  let code = known.get(text);
  if (code !== undefined) return code;
  code = lookUp(text.trim());
  if (known.size < 10_000) known.set(text, code);
  return code;
}

function lookUp(text: string): string | null {
  const upper = text.toUpperCase();
  if (EXCEPTIONS[upper] !== undefined) return EXCEPTIONS[upper];
  if (/^[A-Z]{2}$/.test(upper)) return countries.isValid(upper) ? upper : null;
  if (/^[A-Z]{3}$/.test(upper)) return countries.alpha3ToAlpha2(upper) ?? null;
  if (/^\d{3}$/.test(upper)) return countries.numericToAlpha2(upper) ?? null;
  for (const locale of LOCALES) {
    const code = countries.getAlpha2Code(text, locale.locale);
    if (code !== undefined) return code;
  }
  return null;
}
