import { useCallback, useMemo } from 'react';
import { navigate, useSearch } from '../router.js';
import { foldForSearch, type HealthFilter, type LocationColumn, type LocationSort, type ViewRequest } from './order.js';
import { LOCATION_COLUMNS } from './column-widths.js';

/**
 * What the client page shows, kept in its address so that a reload or a shared link opens the same
 * view: `?q=oak&health=red&sort=-city&location=<id>&selected=<id>.<id>` ("-" sorts descending; defaults
 * are left out).
 */
export interface TableAddress {
  /** The search text as typed. */
  search: string;
  health: HealthFilter;
  sort: LocationSort;
  /** The location open in the side panel. */
  location: string | null;
  /** The locations chosen for a bulk change, in the order chosen (none when more than MAX_SELECTED_IN_ADDRESS). */
  selected: readonly string[];
}

/**
 * A choice of more rows than this (a Shift-click over thousands) stays in the page but not in its address:
 * each id is 37 characters of it.
 */
export const MAX_SELECTED_IN_ADDRESS = 1_000;

const LOCATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function selectedOf(text: string | null): string[] {
  const ids = (text ?? '').split('.').filter((id) => LOCATION_ID.test(id));
  return [...new Set(ids)].slice(0, MAX_SELECTED_IN_ADDRESS);
}

export const DEFAULT_SORT: LocationSort = { key: 'name', direction: 'ascending' };

const COLUMNS: readonly LocationColumn[] = LOCATION_COLUMNS.map((column) => column.key);
const HEALTHS: readonly HealthFilter[] = ['all', 'green', 'yellow', 'red', 'closed'];

function sortOf(text: string | null): LocationSort {
  if (!text) return DEFAULT_SORT;
  const descending = text.startsWith('-');
  const key = (descending ? text.slice(1) : text) as LocationColumn;
  if (!COLUMNS.includes(key)) return DEFAULT_SORT;
  return { key, direction: descending ? 'descending' : 'ascending' };
}

export function tableAddressOf(search: string): TableAddress {
  const params = new URLSearchParams(search);
  const health = params.get('health') as HealthFilter | null;
  return {
    search: params.get('q') ?? '',
    health: health !== null && HEALTHS.includes(health) ? health : 'all',
    sort: sortOf(params.get('sort')),
    location: params.get('location') || null,
    selected: selectedOf(params.get('selected')),
  };
}

export function searchOf(address: TableAddress): string {
  const params = new URLSearchParams();
  if (address.search) params.set('q', address.search);
  if (address.health !== 'all') params.set('health', address.health);
  const { key, direction } = address.sort;
  if (key !== DEFAULT_SORT.key || direction !== DEFAULT_SORT.direction) {
    params.set('sort', `${direction === 'descending' ? '-' : ''}${key}`);
  }
  if (address.location) params.set('location', address.location);
  if (address.selected.length > 0 && address.selected.length <= MAX_SELECTED_IN_ADDRESS) {
    params.set('selected', address.selected.join('.'));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The rows the address asks for: its search (trimmed, folded as the table's texts are), health and sort. */
export function useViewRequest({ search, health, sort }: TableAddress): ViewRequest {
  const query = foldForSearch(search.trim());
  return useMemo(() => ({ sort, query, health }), [sort, query, health]);
}

/**
 * The client page's view from the address, and a setter. A filter, a sort or a location opened or closed
 * is a step of the browser's history (Back undoes it), and so is starting a search; the search text then
 * replaces the address as it is typed (no history entry per keystroke), and so does the choice of rows. A new search or health filter
 * starts the choice again with none: what is chosen is always among what shows.
 */
export function useTableAddress(): [TableAddress, (change: Partial<TableAddress>) => void] {
  const search = useSearch();
  const address = useMemo(() => tableAddressOf(search), [search]);
  const change = useCallback((next: Partial<TableAddress>) => {
    const current = tableAddressOf(window.location.search);
    const filtered =
      (next.search !== undefined && next.search.trim().toLowerCase() !== current.search.trim().toLowerCase()) ||
      (next.health !== undefined && next.health !== current.health);
    const target = searchOf({ ...current, ...(filtered ? { selected: [] } : {}), ...next });
    if (target === searchOf(current)) return;
    // The first letter of a search is a step (Back goes to the view before it); the next ones edit it.
    const startsSearch = next.search !== undefined && current.search.trim() === '' && next.search.trim() !== '';
    const typing = !startsSearch && Object.keys(next).every((key) => key === 'search' || key === 'selected');
    navigate(`${window.location.pathname}${target}`, { replace: typing });
  }, []);
  return [address, change];
}
