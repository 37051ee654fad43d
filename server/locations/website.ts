/**
 * The one rule for a website, a location's or a client's: an http(s) URL or a bare domain (stored as
 * https://). A module of its own, importing nothing: the dashboard's client form checks it before sending,
 * and client websites are checked by it as locations' are.
 */
// Labels of letters (any script: müller.de, bücher.example), marks and digits, hyphens inside; the last
// one letters, or an internationalized one's ASCII form (xn--p1ai, Russia's .рф); a port from 1 to 65535.
const WEBSITE =
  /^(https?:\/\/)?(?:[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}-]*[\p{L}\p{M}\p{N}])?\.)+(?:\p{L}[\p{L}\p{M}]{1,62}|xn--[a-z0-9-]{1,59})(?::(?<port>\d{1,5}))?(?:[/?#]\S*)?$/iu;

export const WEBSITE_WORDS = 'must be a domain such as example.com or an http(s) address';

/**
 * The text as a URL (a bare domain as https://) when it is a website by the rule above and one the URL
 * parser reads (its host IDNA takes); null otherwise. Parsed once: the import keeps what it gives.
 */
export function websiteUrl(value: string): URL | null {
  const parts = WEBSITE.exec(value)?.groups;
  if (parts === undefined) return null;
  if (parts.port !== undefined && (Number(parts.port) < 1 || Number(parts.port) > 65535)) return null;
  try {
    const url = new URL(/^https?:\/\//i.test(value) ? value : `https://${value}`);
    return fitsDns(url.hostname) ? url : null;
  } catch {
    return null;
  }
}

/**
 * Whether a host (as the URL parser gives it: ASCII, an internationalized label as xn--) is a name DNS can
 * hold: labels of at most 63 characters, 253 in all (RFC 1035). A probe's label of 2,040 letters was taken.
 */
function fitsDns(host: string): boolean {
  if (host.length > 253) return false;
  // No array of labels a row: an import asks this of 100,000 websites.
  for (let start = 0; start <= host.length;) {
    const end = host.indexOf('.', start);
    const stop = end < 0 ? host.length : end;
    if (stop - start > 63) return false;
    start = stop + 1;
  }
  return true;
}

/** Whether the text is a website (websiteUrl): a client's, checked before it is kept as typed. */
export const isWebsite = (value: string): boolean => websiteUrl(value) !== null;
