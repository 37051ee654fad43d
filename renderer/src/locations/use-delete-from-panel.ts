import { useCallback, useEffect, useRef } from 'react';
import type { ListState } from './list.js';
import type { TableAddress } from './url-state.js';

/**
 * What a location deleted from its panel does to the table: it leaves the choice of rows, the panel
 * closes, and the focus goes back to the table's Tab stop row once the list read again no longer holds
 * the deleted row (before that, the Tab stop could be that very row, about to go). Without it the focus
 * would fall to the page's body with the panel.
 */
export function useDeleteFromPanel(
  { rows, loaded }: Pick<ListState, 'rows' | 'loaded'>,
  forget: (id: string) => void,
  onAddress: (change: Partial<TableAddress>) => void,
): (id: string) => void {
  const deleted = useRef<string | null>(null);
  useEffect(() => {
    const id = deleted.current;
    if (id === null || !loaded || [...rows.values()].some((row) => row.id === id)) return;
    deleted.current = null;
    document.querySelector<HTMLElement>('.locations-table [role="row"][tabindex="0"]')?.focus();
  }, [rows, loaded]);
  return useCallback(
    (id: string) => {
      forget(id);
      onAddress({ location: null });
      deleted.current = id;
    },
    [forget, onAddress],
  );
}
