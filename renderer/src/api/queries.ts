import { QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch } from './http.js';
import { authorized, sessionState, subscribeSession } from './session.js';
import type {
  ClientRow,
  CreatedClientBody,
  NewClient,
  NewUser,
  Profile,
  SetupState,
  SuccessBody,
  UserChange,
  UserRow,
} from './types.js';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will not change by asking again; a dropped connection may.
      retry: (failures, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
  },
});

// Signed out: nothing the last user saw may show for the next one, not even for the cache's 30 s.
let signedInAs = sessionState().session?.user.id ?? null;
subscribeSession(() => {
  const now = sessionState().session?.user.id ?? null;
  if (now !== signedInAs) queryClient.clear();
  signedInAs = now;
});

export const keys = {
  me: ['me'] as const,
  setup: ['setup'] as const,
  clients: ['clients'] as const,
  // A client's LocationList (renderer/src/locations/use-location-list.ts), loaded by the locations worker.
  locations: (clientId: string) => ['locations', clientId] as const,
  users: ['users'] as const,
};

export function useSetupStatus() {
  return useQuery({
    queryKey: keys.setup,
    queryFn: async () => (await apiFetch<SetupState>('/auth/setup')).data,
    staleTime: Infinity,
  });
}

export function useProfile(enabled: boolean) {
  return useQuery({ queryKey: keys.me, queryFn: async () => (await authorized<Profile>('/api/me')).data, enabled });
}

/** The clients the user may see: the hook's query, and the one asked for as the dashboard starts (early.ts). */
export const clientsQuery = {
  queryKey: keys.clients,
  queryFn: async () => (await authorized<ClientRow[]>('/api/clients')).data,
};

export function useClients(enabled = true) {
  return useQuery({ ...clientsQuery, enabled });
}

export function useCreateClient() {
  const cache = useQueryClient();
  return useMutation({
    mutationFn: async (body: NewClient) =>
      (await authorized<CreatedClientBody>('/api/clients', { method: 'POST', json: body })).data,
    onSuccess: (created, body) => {
      // The new client shows at once; the refetch then brings the server's own values.
      cache.setQueryData<ClientRow[]>(keys.clients, (clients) =>
        clients
          ? [
              ...clients,
              {
                ...created,
                industry: body.industry ?? null,
                website: body.website ?? null,
                created_at: new Date().toISOString(),
                locations_count: 0,
              },
            ]
          : clients,
      );
      return cache.invalidateQueries({ queryKey: keys.clients });
    },
  });
}

export function useDeleteClient() {
  const cache = useQueryClient();
  return useMutation({
    mutationFn: async (clientId: string) =>
      (await authorized<SuccessBody>(`/api/clients/${encodeURIComponent(clientId)}`, { method: 'DELETE' })).data,
    onSuccess: (_answer, clientId) => {
      cache.removeQueries({ queryKey: keys.locations(clientId) });
      // Deleting a client also deletes its Client Viewer accounts.
      return Promise.all([
        cache.invalidateQueries({ queryKey: keys.clients }),
        cache.invalidateQueries({ queryKey: keys.users }),
      ]);
    },
  });
}

export function useUsers(enabled: boolean) {
  return useQuery({
    queryKey: keys.users,
    queryFn: async () => (await authorized<UserRow[]>('/api/users')).data,
    enabled,
  });
}

export function useCreateUser() {
  const cache = useQueryClient();
  return useMutation({
    mutationFn: async (body: NewUser) => (await authorized<UserRow>('/api/users', { method: 'POST', json: body })).data,
    onSuccess: () => cache.invalidateQueries({ queryKey: keys.users }),
  });
}

export function useUpdateUser() {
  const cache = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, change }: { id: string; change: UserChange }) =>
      (await authorized<UserRow>(`/api/users/${encodeURIComponent(id)}`, { method: 'PATCH', json: change })).data,
    onSuccess: () => cache.invalidateQueries({ queryKey: keys.users }),
  });
}

export function useDeleteUser() {
  const cache = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (await authorized<SuccessBody>(`/api/users/${encodeURIComponent(id)}`, { method: 'DELETE' })).data,
    onSuccess: () => cache.invalidateQueries({ queryKey: keys.users }),
  });
}
