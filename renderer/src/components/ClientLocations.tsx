import { useCallback, useLayoutEffect, useState } from 'react';
import type { LocationList } from '../locations/list.js';
import type { LocationSort, ViewRequest } from '../locations/order.js';
import type { TableAddress } from '../locations/url-state.js';
import { useListState } from '../locations/use-location-list.js';
import { exportLocations, type ExportFormat } from '../export/locations-csv.js';
import { ErrorNotice } from './ErrorNotice.js';
import { LocationsToolbar } from './LocationsToolbar.js';
import { LocationsTable } from './LocationsTable.js';
import { LocationPanel } from './LocationPanel.js';
import { SkipToRows } from './SkipToRows.js';
import { BulkEditButton } from '../location-edit/BulkEditButton.js';
import { useSelection } from '../locations/use-selection.js';
import { useDeleteFromPanel } from '../locations/use-delete-from-panel.js';
import { UnsavedEditsProvider, useUnsavedGuard } from '../location-edit/unsaved-edits.js';

/**
 * A client's locations once it has some: the toolbar, the table and the open location. What shows
 * (search, health, sort, open location) lives in the address, so a reload or a link keeps it.
 */
export function ClientLocations({
  list,
  clientName,
  address,
  request,
  onAddress,
}: {
  list: LocationList;
  clientName: string;
  address: TableAddress;
  /** The rows `address` asks for. */
  request: ViewRequest;
  onAddress: (change: Partial<TableAddress>) => void;
}) {
  const state = useListState(list);
  const [exportError, setExportError] = useState<unknown>(null);
  const { sort, health, query } = request;
  // Before paint, so that the first rows show in the first frame.
  useLayoutEffect(() => list.show(request), [list, request]);

  const onSort = useCallback((next: LocationSort) => onAddress({ sort: next }), [onAddress]);
  const { onOpen, closePanel, report, question } = usePanelMoves(address.location, onAddress);
  const onRange = useCallback((start: number, end: number) => list.need(start, end), [list]);
  const idAt = useCallback((index: number) => state.rows.get(index)?.id, [state.rows]);
  const onSelected = useCallback((selected: string[]) => onAddress({ selected }), [onAddress]);
  const selection = useSelection(list, idAt, `${query}\u0000${health}`, address.selected, onSelected);
  const onDeleted = useDeleteFromPanel(state, selection.forget, onAddress);

  const exportShown = (format: ExportFormat) => {
    setExportError(null);
    list
      .exportRows()
      .then((rows) => exportLocations(rows, clientName, list.clientId, format))
      .catch(setExportError);
  };

  const noMatch = state.loaded && state.shown !== null && state.count === 0;
  return (
    <>
      <LocationsToolbar
        search={address.search}
        onSearch={(search) => onAddress({ search })}
        health={health}
        onHealth={(next) => onAddress({ health: next })}
        shown={state.count}
        received={state.received}
        total={state.total}
        loaded={state.loaded}
        onExport={exportShown}
      />
      <BulkEditButton list={list} shown={state.count} loaded={state.loaded} selection={selection} />
      <ErrorNotice error={exportError} />
      {noMatch ? (
        <div className="table-empty">
          No location matches.{' '}
          <button type="button" className="button-link" onClick={() => onAddress({ search: '', health: 'all' })}>
            Clear the filters
          </button>
        </div>
      ) : (
        <>
          <SkipToRows />
          <LocationsTable
            rows={state.rows}
            count={state.count}
            onRange={onRange}
            sort={sort}
            onSort={onSort}
            openId={address.location}
            onOpen={onOpen}
            selection={selection}
            scope={`${query}\u0000${health}\u0000${sort.key}\u0000${sort.direction}`}
            busy={!state.loaded || state.shown !== state.requested}
          />
        </>
      )}
      {address.location && (
        <UnsavedEditsProvider value={report}>
          <LocationPanel locationId={address.location} onClose={closePanel} onDeleted={onDeleted} />
        </UnsavedEditsProvider>
      )}
      {question}
    </>
  );
}

/**
 * Opening a location and closing its panel. While the editor holds unsaved changes either is asked first:
 * opening by the router's blocker, as every move of the address (unsaved-edits.tsx); closing by the guard
 * itself, since it gives the focus back to the location's row only once the panel really closes.
 */
function usePanelMoves(openId: string | null, onAddress: (change: Partial<TableAddress>) => void) {
  const { report, guard, question } = useUnsavedGuard();
  const onOpen = useCallback((id: string) => onAddress({ location: id }), [onAddress]);
  const closePanel = useCallback(() => {
    guard(() => {
      onAddress({ location: null });
      if (openId) document.querySelector<HTMLElement>(`[data-location-id="${CSS.escape(openId)}"]`)?.focus();
    });
  }, [openId, guard, onAddress]);
  return { onOpen, closePanel, report, question };
}
