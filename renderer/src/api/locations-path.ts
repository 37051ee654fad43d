import type { LocationListQuery } from './types.js';

/**
 * The path of `GET /api/locations` for `query`, its parameters in one order. It loads nothing else, so
 * that the list's worker, which must not load the session (session.ts), builds its pages with it too.
 */
export function locationsPath({ clientId, include, limit, offset }: LocationListQuery): string {
  const query = new URLSearchParams({ clientId });
  if (limit !== undefined) query.set('limit', String(limit));
  if (offset !== undefined) query.set('offset', String(offset));
  if (include !== undefined) query.set('include', include);
  return `/api/locations?${query}`;
}
