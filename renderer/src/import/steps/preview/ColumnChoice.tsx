import { useState } from 'react';
import type { RowField } from '../../../../../server/locations/schemas.js';
import { ROW_FIELD_LABELS } from '../../header-mapping.js';

/** The column a bulk change works on, among the fields the mapping feeds. */
export function ColumnChoice({
  label,
  fields,
  value,
  onChange,
}: {
  label: string;
  fields: RowField[];
  value: RowField;
  onChange: (field: RowField) => void;
}) {
  return (
    <label className="field-inline">
      <span>{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value as RowField)}>
        {fields.map((option) => (
          <option key={option} value={option}>
            {ROW_FIELD_LABELS[option]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The column a bulk change starts on: the country when the file has one (the usual fix), else the first. */
function firstColumn(fields: RowField[]): RowField {
  return fields.includes('country') ? 'country' : (fields[0] ?? 'name');
}

/** The column chosen, else the usual one; the grid's fields arrive after the first render. */
export function useColumnChoice(fields: RowField[]): [RowField, (field: RowField) => void] {
  const [chosen, setChosen] = useState<RowField | null>(null);
  return [chosen !== null && fields.includes(chosen) ? chosen : firstColumn(fields), setChosen];
}
