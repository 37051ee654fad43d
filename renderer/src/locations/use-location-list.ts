import { createContext, useContext, useSyncExternalStore } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { keys, queryClient } from '../api/queries.js';
import { LocationList, emptyListState, type ListState } from './list.js';
import type { ViewRequest } from './order.js';

// The list each client page shows; a newer one replaces it only once it holds every row.
const current = new Map<string, LocationList>();

// A list that leaves the cache (sign-out, garbage collection) frees its rows in the worker.
queryClient.getQueryCache().subscribe((event) => {
  const data: unknown = event.query.state.data;
  if (event.type === 'removed' && data instanceof LocationList) {
    data.drop();
    if (current.get(data.clientId) === data) current.delete(data.clientId);
  }
});

async function openList(
  clientId: string,
  request: ViewRequest,
  replacing: boolean,
  signal: AbortSignal,
): Promise<LocationList> {
  const list = new LocationList(clientId);
  try {
    await list.open(request, signal);
    // After an import the old list stays on screen until the new one is whole: counts never drop back.
    if (replacing) await list.loaded();
  } catch (error) {
    list.drop();
    throw error;
  }
  const previous = current.get(clientId);
  current.set(clientId, list);
  if (previous !== list) previous?.drop();
  return list;
}

/**
 * A client's locations: the list (an external store) from the query cache, which an import
 * invalidates. A new list starts with `request`'s view, so it is sorted as it loads.
 */
export function useLocationList(clientId: string, request: ViewRequest) {
  const cache = useQueryClient();
  return useQuery({
    queryKey: keys.locations(clientId),
    queryFn: ({ signal }) =>
      openList(clientId, request, cache.getQueryData(keys.locations(clientId)) instanceof LocationList, signal),
    // A LocationList is a live store, not JSON to compare.
    structuralSharing: false,
  });
}

const EMPTY = emptyListState();
const nothing = () => () => undefined;

/**
 * One part of the list's state (`select` must return a value kept while unchanged, such as `counts`),
 * re-rendering only when that part changes: the page around the table does not redraw on a scroll.
 */
export function useListPart<T>(list: LocationList | undefined, select: (state: ListState) => T): T {
  return useSyncExternalStore(list?.subscribe ?? nothing, () => select(list?.snapshot() ?? EMPTY));
}

/** The list's whole state, re-rendering as its rows and views arrive. */
export const useListState = (list: LocationList | undefined): ListState => useListPart(list, (state) => state);

/** The list the client page shows, for the components inside it (the location panel). */
export const LocationListContext = createContext<LocationList | undefined>(undefined);

export const useShownLocationList = () => useContext(LocationListContext);
