import { useLayoutEffect, useRef } from 'react';
import type { RowField } from '../../../../../server/locations/schemas.js';
import { formatCount } from '../../../format.js';
import { ROW_FIELD_LABELS } from '../../header-mapping.js';
import { splitName } from './GridRowView.js';
import { NOTHING, type Selection } from './selection.js';

/**
 * The head's box, as in a mail list: ticks every row shown, or with any row ticked ticks none (half ticked
 * then). It took the place of two buttons ("Select all … shown", "Clear the selection") that pushed the
 * find row onto two lines at the desktop window's 1280 px.
 */
function SelectShown({
  selection,
  shown,
  onSelection,
}: {
  selection: Selection;
  shown: number;
  onSelection: (selection: Selection) => void;
}) {
  const box = useRef<HTMLInputElement>(null);
  const every = selection.kind === 'shown';
  const some = selection.kind === 'rows' && selection.rows.size > 0;
  useLayoutEffect(() => {
    if (box.current) box.current.indeterminate = some;
  }, [some]);
  return (
    <input
      ref={box}
      type="checkbox"
      aria-label={shown === 1 ? 'Select the row shown' : `Select all ${formatCount(shown)} rows shown`}
      checked={every}
      disabled={shown === 0}
      onChange={() => onSelection(every || some ? NOTHING : { kind: 'shown' })}
    />
  );
}

/**
 * The grid's column heads: the row's box, line and name (which stay in view while the grid scrolls
 * sideways), what the import does with it ("Action": not "Status", which is a field of a location) and
 * its problems, in view without scrolling, then the other mapped fields.
 */
export function GridHead({
  fields,
  selection,
  shown,
  onSelection,
}: {
  fields: RowField[];
  selection: Selection;
  shown: number;
  onSelection: (selection: Selection) => void;
}) {
  const head = (field: RowField) => (
    <th key={field} scope="col" className={field === 'name' ? 'grid-name' : undefined}>
      {ROW_FIELD_LABELS[field]}
    </th>
  );
  const { named, others } = splitName(fields);
  return (
    <thead>
      <tr aria-rowindex={1}>
        <th scope="col">
          <SelectShown selection={selection} shown={shown} onSelection={onSelection} />
        </th>
        <th scope="col">Line</th>
        {named && head('name')}
        <th scope="col">Action</th>
        <th scope="col">Problems</th>
        {others.map(head)}
      </tr>
    </thead>
  );
}
