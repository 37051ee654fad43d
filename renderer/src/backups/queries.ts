import type { Static } from '@sinclair/typebox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Backup } from '../../../server/backups/schemas.js';
import { errorOf } from '../api/http.js';
import { accessToken, authorized } from '../api/session.js';

/** One backup as GET /api/backups answers, from the server's TypeBox schema. */
export type BackupRow = Static<typeof Backup>;

const KEY = ['backups'] as const;

export function useBackups() {
  return useQuery({ queryKey: KEY, queryFn: async () => (await authorized<BackupRow[]>('/api/backups')).data });
}

export function useBackUpNow() {
  const cache = useQueryClient();
  return useMutation({
    mutationFn: async () => (await authorized<BackupRow>('/api/backups', { method: 'POST' })).data,
    onSuccess: () => cache.invalidateQueries({ queryKey: KEY }),
  });
}

/**
 * Saves a backup file. A link cannot carry the Authorization header, so the page fetches the bytes and
 * hands them to the browser as a download under the backup's own name.
 */
export async function downloadBackup(name: string): Promise<void> {
  const token = await accessToken();
  const response = await fetch(`/api/backups/${encodeURIComponent(name)}/download`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw errorOf(response.status, await response.text(), response.headers.get('retry-after'));
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.click();
  } finally {
    // The click has started the download by the time it returns; the next task may free the bytes.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
