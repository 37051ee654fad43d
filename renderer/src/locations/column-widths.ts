import { useCallback, useLayoutEffect, useMemo, useState, type RefObject } from 'react';
import type { LocationColumn } from './order.js';

/**
 * `keeps`: a column of set-width values (a date) never narrows below its usual width when the table fits a
 * small window. The name has the most room: at 1280 pixels a walk found names cut while addresses fit.
 */
export const LOCATION_COLUMNS: readonly { key: LocationColumn; label: string; width: number; keeps?: true }[] = [
  { key: 'name', label: 'Name', width: 280 },
  // The agency's own id for each location: what its people search and sort by.
  { key: 'store_code', label: 'Store code', width: 110 },
  { key: 'address', label: 'Address', width: 200 },
  { key: 'city', label: 'City', width: 112 },
  { key: 'state', label: 'State', width: 68 },
  { key: 'zip', label: 'Postal code', width: 116 },
  { key: 'country', label: 'Country', width: 88 },
  { key: 'health_score', label: 'Health', width: 202 },
  { key: 'created_at', label: 'Created', width: 120, keeps: true },
];

export const MIN_COLUMN_WIDTH = 56;
export const MAX_COLUMN_WIDTH = 1200;

export type ColumnWidths = Record<LocationColumn, number>;

// Widths are the user's own preference on this machine, not part of what a link shares.
const STORAGE_KEY = 'agency-desk.location-column-widths';

export const clampWidth = (width: number) => Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, width)));

/** The widths the user has set, by column. */
function saved(): Partial<ColumnWidths> {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<Record<string, unknown>>;
    const widths: Partial<ColumnWidths> = {};
    for (const { key } of LOCATION_COLUMNS) {
      const width = stored[key];
      if (typeof width === 'number' && Number.isFinite(width)) widths[key] = clampWidth(width);
    }
    return widths;
  } catch {
    return {};
  }
}

const DEFAULT_TOTAL = LOCATION_COLUMNS.reduce((sum, column) => sum + column.width, 0);
const KEPT_TOTAL = LOCATION_COLUMNS.reduce((sum, column) => sum + (column.keeps ? column.width : 0), 0);

/**
 * The usual widths, scaled so that the columns fill `available` pixels (within 80% and 200% of
 * their size): every column shows in a 1024-pixel window, and a wide one leaves no gap. Narrowing,
 * the columns that `keep` their width stay whole ("Nov 24, 2026" was cut at 1280 pixels) and the
 * others narrow for them.
 */
export function fittedWidths(available: number): ColumnWidths {
  const factor = available > 0 ? Math.min(2, Math.max(0.8, available / DEFAULT_TOTAL)) : 1;
  const narrowing = factor < 1 ? Math.max(0.8, (available - KEPT_TOTAL) / (DEFAULT_TOTAL - KEPT_TOTAL)) : factor;
  return Object.fromEntries(
    LOCATION_COLUMNS.map((column) => [
      column.key,
      clampWidth(Math.floor(column.width * (factor < 1 && column.keeps ? 1 : narrowing))),
    ]),
  ) as ColumnWidths;
}

/**
 * The locations table's column widths for a table `available` pixels wide: the usual ones fitted to
 * it, except those the user set, remembered across visits. `resize(column, null)` restores the usual one.
 */
export function useColumnWidths(
  available: number,
): [ColumnWidths, (column: LocationColumn, width: number | null) => void] {
  const [set, setSet] = useState(saved);
  const resize = useCallback((column: LocationColumn, width: number | null) => {
    setSet((current) => {
      const next = { ...current };
      if (width === null) delete next[column];
      else next[column] = clampWidth(width);
      try {
        localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        // Private windows may refuse storage: the width then lasts for this visit only.
      }
      return next;
    });
  }, []);
  const widths = useMemo(() => ({ ...fittedWidths(available), ...set }), [available, set]);
  return [widths, resize];
}

/** The inner width of `element`, kept up to date (measured before the first paint). */
export function useInnerWidth(element: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const target = element.current;
    if (!target) return;
    // A measurement before paint is what a layout effect's setState is for (React docs, useLayoutEffect).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setWidth(target.clientWidth);
    const observer = new ResizeObserver(() => setWidth(target.clientWidth));
    observer.observe(target);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

/** The CSS grid columns of every row: the widths, then a filler so rows span the table's width. */
export const gridColumnsOf = (widths: ColumnWidths): string =>
  `${LOCATION_COLUMNS.map(({ key }) => `${widths[key]}px`).join(' ')} minmax(0, 1fr)`;

export const totalWidthOf = (widths: ColumnWidths): number =>
  LOCATION_COLUMNS.reduce((sum, { key }) => sum + widths[key], 0);
