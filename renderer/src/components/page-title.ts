import { useEffect } from 'react';

/**
 * The window's and the tab's title: what the page shows, then the app ("Bluebird Coffee · Agency Desk"),
 * so that tabs and the browser's history tell pages apart. Undefined leaves it to a page inside.
 */
export function usePageTitle(words: string | undefined): void {
  useEffect(() => {
    if (words !== undefined) document.title = `${words} · Agency Desk`;
  }, [words]);
}
