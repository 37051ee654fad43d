import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Static } from '@sinclair/typebox';
import type {
  BulkEditBody,
  BulkEditResponse,
  CountResponse,
  LocationPatch,
  LocationRecord,
  PatchAnswer,
} from '../../../server/locations/schemas.js';
import type { Client, UpdateClientBody } from '../../../server/clients/schemas.js';
import { keys } from './queries.js';
import { authorized } from './session.js';
import type { SuccessBody } from './types.js';

/** Issue 9 §2: one location read and edited, many deleted or edited at once, a client edited. */

export type LocationWhole = Static<typeof LocationRecord>;
export type LocationChange = Static<typeof LocationPatch>;
/** A change's answer: the record, and what of the change it could not keep (a phone's extension). */
export type LocationChangeAnswer = Static<typeof PatchAnswer>;
export type BulkChange = Static<typeof BulkEditBody>;
export type BulkChangeAnswer = Static<typeof BulkEditResponse>;

const locationKey = (id: string) => ['location', id] as const;
const path = (id: string) => `/api/locations/${encodeURIComponent(id)}`;

export function useLocation(id: string) {
  return useQuery({
    queryKey: locationKey(id),
    queryFn: async () => (await authorized<LocationWhole>(path(id))).data,
  });
}

/** The change checked by the server as it would be made (PATCH ?dryRun=true): its 400 or 409, or the record. */
export async function checkLocationChange(id: string, change: LocationChange): Promise<LocationChangeAnswer> {
  return (await authorized<LocationChangeAnswer>(`${path(id)}?dryRun=true`, { method: 'PATCH', json: change })).data;
}

/**
 * After a change, the records and the client's list (and its counts) are read again; never the record of
 * a location just deleted (`gone`), whose panel is closing: asked again, it would be a 404.
 */
function useRefresh() {
  const cache = useQueryClient();
  return (clientId: string | undefined, gone?: string) =>
    Promise.all([
      cache.invalidateQueries({ queryKey: ['location'], predicate: (query) => query.queryKey[1] !== gone }),
      cache.invalidateQueries({ queryKey: clientId ? keys.locations(clientId) : ['locations'] }),
      cache.invalidateQueries({ queryKey: keys.clients }),
      cache.invalidateQueries({ queryKey: ['history'] }),
    ]);
}

export function useUpdateLocation(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (change: LocationChange) =>
      (await authorized<LocationChangeAnswer>(path(id), { method: 'PATCH', json: change })).data,
    onSuccess: (location) => refresh(location.client_id),
  });
}

/**
 * One location deleted, from its panel. `onDeleted` runs before the lists are read again: the list
 * read again no longer holds the location, which unmounts the panel, and with it a callback given to
 * `mutate`, which then never runs.
 */
export function useDeleteLocation(clientId: string | undefined, onDeleted: (id: string) => void) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (id: string) => (await authorized<SuccessBody>(path(id), { method: 'DELETE' })).data,
    onSuccess: (_, id) => {
      onDeleted(id);
      return refresh(clientId, id);
    },
  });
}

export function useDeleteLocations(clientId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (ids: string[]) =>
      (await authorized<Static<typeof CountResponse>>('/api/locations/delete', { method: 'POST', json: { ids } })).data,
    onSuccess: () => refresh(clientId),
  });
}

export function useBulkEdit(clientId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (body: BulkChange) =>
      (await authorized<BulkChangeAnswer>('/api/locations', { method: 'PATCH', json: body })).data,
    onSuccess: () => refresh(clientId),
  });
}

export function useUpdateClient(clientId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (change: Static<typeof UpdateClientBody>) =>
      (
        await authorized<Static<typeof Client>>(`/api/clients/${encodeURIComponent(clientId)}`, {
          method: 'PATCH',
          json: change,
        })
      ).data,
    onSuccess: () => refresh(clientId),
  });
}
