import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** Parts whose code waits to be fetched: fetched all together once the first page is up. */
const waiting: (() => Promise<unknown>)[] = [];

/**
 * A component whose code loads when first drawn, or earlier when `prefetchParts` runs. A prefetch that
 * failed (the server was down) is tried again when the part is first drawn; once a draw has failed, React
 * keeps that failure for the window, and the part's PartBoundary offers a reload.
 */
export function lazyPart<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): LazyExoticComponent<ComponentType<Props>> {
  let loading: Promise<ComponentType<Props>> | null = null;
  const once = () => {
    loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
  waiting.push(once);
  return lazy(() => once().then((component) => ({ default: component })));
}

/**
 * Fetches every lazy part's code once the browser is idle, so that opening a page later does not depend on
 * the server still answering (the banner then says it is down, as for any request) and does not wait.
 */
export function prefetchParts(): void {
  const fetchAll = () => {
    for (const load of waiting) load().catch(() => undefined);
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fetchAll, { timeout: 2000 });
  else setTimeout(fetchAll, 200);
}
