import type { Static } from '@sinclair/typebox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PendingDeviceRequest } from '../../../server/device/schemas.js';
import type { Scope } from '../../../server/tokens/scopes.js';
import type { ApiToken, CreateApiTokenBody, CreatedApiToken } from '../../../server/tokens/schemas.js';
import { authorized } from '../api/session.js';
import type { SuccessBody } from '../api/types.js';

/** The API's shapes for tokens and device requests, from the server's TypeBox schemas. */
export type ApiTokenRow = Static<typeof ApiToken>;
export type NewApiToken = Static<typeof CreateApiTokenBody>;
export type CreatedToken = Static<typeof CreatedApiToken>;
export type DeviceRequestRow = Static<typeof PendingDeviceRequest>;
export type ScopeName = Static<typeof Scope>;

export const SCOPE_HELP: Record<ScopeName, string> = {
  read: 'Read clients and locations',
  import: 'Import, edit and delete locations',
  clients: 'Create, edit and delete clients',
  admin: 'Manage users, API tokens and script approvals',
};

// How often the dashboard asks for scripts waiting for approval: the prompt shows within seconds.
export const DEVICE_POLL_MS = 3000;

const keys = {
  tokens: (all: boolean) => ['tokens', all] as const,
  devices: ['device-requests'] as const,
};

export function useApiTokens(all: boolean) {
  return useQuery({
    queryKey: keys.tokens(all),
    queryFn: async () => (await authorized<ApiTokenRow[]>(`/api/tokens${all ? '?all=true' : ''}`)).data,
  });
}

export function useCreateToken() {
  const cache = useQueryClient();
  return useMutation({
    mutationFn: async (body: NewApiToken) =>
      (await authorized<CreatedToken>('/api/tokens', { method: 'POST', json: body })).data,
    onSuccess: () => cache.invalidateQueries({ queryKey: ['tokens'] }),
  });
}

export function useRevokeToken() {
  const cache = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (await authorized<SuccessBody>(`/api/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' })).data,
    onSuccess: () => cache.invalidateQueries({ queryKey: ['tokens'] }),
  });
}

/** The scripts waiting for this user's approval, asked again every few seconds while signed in. */
export function useDeviceRequests() {
  return useQuery({
    queryKey: keys.devices,
    queryFn: async () => (await authorized<DeviceRequestRow[]>('/api/device')).data,
    refetchInterval: DEVICE_POLL_MS,
    staleTime: 0,
  });
}

export function useDecideDevice() {
  const cache = useQueryClient();
  return useMutation({
    mutationFn: async ({ userCode, decision }: { userCode: string; decision: 'approve' | 'deny' }) =>
      (await authorized<SuccessBody>(`/api/device/${decision}`, { method: 'POST', json: { user_code: userCode } }))
        .data,
    onSettled: () =>
      Promise.all([
        cache.invalidateQueries({ queryKey: keys.devices }),
        cache.invalidateQueries({ queryKey: ['tokens'] }),
      ]),
  });
}
