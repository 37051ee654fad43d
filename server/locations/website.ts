/**
 * The one rule for a website, a location's or a client's: an http(s) URL or a bare domain (stored as
 * https://). A module of its own, importing nothing: the dashboard's client form checks it before sending.
 */
const WEBSITE = /^(https?:\/\/)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}(?::(\d{1,5}))?([/?#]\S*)?$/i;

export const WEBSITE_WORDS = 'must be a domain such as example.com or an http(s) address';

export function isWebsite(value: string): boolean {
  const match = WEBSITE.exec(value);
  return match !== null && (match[4] === undefined || Number(match[4]) <= 65535);
}
