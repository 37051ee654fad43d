import { useCallback, useState } from 'react';
import type { LocationColumn } from './order.js';

export const LOCATION_COLUMNS: readonly { key: LocationColumn; label: string; width: number }[] = [
  { key: 'name', label: 'Name', width: 240 },
  { key: 'address', label: 'Address', width: 220 },
  { key: 'city', label: 'City', width: 120 },
  { key: 'state', label: 'State', width: 72 },
  { key: 'zip', label: 'Postal code', width: 104 },
  { key: 'country', label: 'Country', width: 84 },
  { key: 'health_score', label: 'Health', width: 230 },
  { key: 'created_at', label: 'Created', width: 120 },
];

export const MIN_COLUMN_WIDTH = 56;
export const MAX_COLUMN_WIDTH = 1200;

export type ColumnWidths = Record<LocationColumn, number>;

export const DEFAULT_WIDTHS = Object.fromEntries(
  LOCATION_COLUMNS.map((column) => [column.key, column.width]),
) as ColumnWidths;

// Widths are the user's own preference on this machine, not part of what a link shares.
const STORAGE_KEY = 'agency-desk.location-column-widths';

export const clampWidth = (width: number) => Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, width)));

function saved(): ColumnWidths {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<Record<string, unknown>>;
    const widths = { ...DEFAULT_WIDTHS };
    for (const { key } of LOCATION_COLUMNS) {
      const width = stored[key];
      if (typeof width === 'number' && Number.isFinite(width)) widths[key] = clampWidth(width);
    }
    return widths;
  } catch {
    return { ...DEFAULT_WIDTHS };
  }
}

/** The locations table's column widths, remembered across visits; `resize(column, null)` restores the default. */
export function useColumnWidths(): [ColumnWidths, (column: LocationColumn, width: number | null) => void] {
  const [widths, setWidths] = useState(saved);
  const resize = useCallback((column: LocationColumn, width: number | null) => {
    setWidths((current) => {
      const next = { ...current, [column]: width === null ? DEFAULT_WIDTHS[column] : clampWidth(width) };
      try {
        localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        // Private windows may refuse storage: the width then lasts for this visit only.
      }
      return next;
    });
  }, []);
  return [widths, resize];
}

/** The CSS grid columns of every row: the widths, then a filler so rows span the table's width. */
export const gridColumnsOf = (widths: ColumnWidths): string =>
  `${LOCATION_COLUMNS.map(({ key }) => `${widths[key]}px`).join(' ')} minmax(0, 1fr)`;

export const totalWidthOf = (widths: ColumnWidths): number =>
  LOCATION_COLUMNS.reduce((sum, { key }) => sum + widths[key], 0);
