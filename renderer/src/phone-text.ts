import { useQuery } from '@tanstack/react-query';

/**
 * How a phone reads in the dashboard. The server stores phones as E.164 ("+12175550142", what Google and
 * scripts want) and the export writes them so; on screen they are grouped the international way
 * ("+1 217 555 0142") by libphonenumber-js, the library the server parses them with. Its metadata is
 * 120 KB, so it loads when a screen that shows phones first needs it; until then a phone reads as stored.
 */
let format: ((phone: string) => string) | null = null;

export async function loadPhoneFormat(): Promise<true> {
  const { parsePhoneNumberFromString } = await import('libphonenumber-js/min');
  format = (phone) => parsePhoneNumberFromString(phone)?.formatInternational() ?? phone;
  return true;
}

/** A stored phone as the dashboard shows it: grouped once the library has loaded, as stored before. */
export const phoneText = (phone: string): string => format?.(phone) ?? phone;

const asStored = (phone: string): string => phone;

/** For a component that shows phones: loads the library, and renders the component again once it has. */
export function usePhoneText(): typeof phoneText {
  // Reading `data` is what subscribes the component: a query renders again only for what was read.
  const { data: loaded } = useQuery({
    queryKey: ['phone-format'],
    queryFn: loadPhoneFormat,
    staleTime: Infinity,
    gcTime: Infinity,
  });
  return loaded ? phoneText : asStored;
}
