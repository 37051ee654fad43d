import type { RefObject } from 'react';
import type { VirtualItem } from '@tanstack/react-virtual';
import type { LocationRow } from '../api/types.js';
import type { useRowFocus } from '../locations/use-row-focus.js';
import { LocationsTableRow } from './LocationsTableRow.js';
import { HEAD_HEIGHT } from './LocationsTableHead.js';

/** The rows in view, each placed where it would be in the whole list; one of them is the Tab stop. */
export function LocationsTableBody({
  bodyRef,
  height,
  items,
  rows,
  tabStop,
  openId,
  selected,
  focus,
}: {
  bodyRef: RefObject<HTMLDivElement | null>;
  height: number;
  items: VirtualItem[];
  rows: ReadonlyMap<number, LocationRow>;
  tabStop: number;
  openId: string | null;
  selected: ReadonlySet<string>;
  focus: Pick<ReturnType<typeof useRowFocus>, 'onKeyDown' | 'onClick' | 'onFocus'>;
}) {
  return (
    <div
      ref={bodyRef}
      role="rowgroup"
      className="table-body"
      style={{ height }}
      onKeyDown={focus.onKeyDown}
      onClick={focus.onClick}
      onFocus={focus.onFocus}
    >
      {items.map((item) => {
        const location = rows.get(item.index);
        return (
          <LocationsTableRow
            // Keyed by place: the focused row keeps its element while its location arrives or changes.
            key={item.index}
            location={location}
            index={item.index}
            top={item.start - HEAD_HEIGHT}
            tabbable={item.index === tabStop}
            open={location !== undefined && location.id === openId}
            selected={location !== undefined && selected.has(location.id)}
          />
        );
      })}
    </div>
  );
}
