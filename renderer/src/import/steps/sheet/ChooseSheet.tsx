import { useState } from 'react';
import type { SheetChoice } from '../../protocol.js';
import { plural } from '../../../format.js';

/** A workbook with several sheets that could hold the locations (sheet-choice.ts): which one does. */
export function ChooseSheet({
  fileName,
  sheets,
  onChoose,
  onCancel,
}: {
  fileName: string | null;
  sheets: readonly SheetChoice[];
  onChoose: (sheet: string) => void;
  onCancel: () => void;
}) {
  // The sheet with the most rows is most likely the locations: it is chosen until the user picks another.
  const largest = sheets.reduce<SheetChoice | null>(
    (best, sheet) => (best && best.rowCount >= sheet.rowCount ? best : sheet),
    null,
  );
  const [chosen, setChosen] = useState(largest?.name ?? '');
  return (
    <form
      className="choose-sheet"
      onSubmit={(event) => {
        event.preventDefault();
        onChoose(chosen);
      }}
    >
      <fieldset>
        <legend>
          <strong>Choose the sheet</strong>: {fileName ? `“${fileName}”` : 'This workbook'} has{' '}
          {plural(sheets.length, 'sheet')} that could hold the locations.
        </legend>
        {sheets.map((sheet) => (
          <label key={sheet.name} className="choice">
            <input
              type="radio"
              name="sheet"
              value={sheet.name}
              checked={chosen === sheet.name}
              // The chosen sheet holds the focus, so the keyboard starts in the list.
              autoFocus={sheet.name === largest?.name}
              onChange={() => setChosen(sheet.name)}
            />{' '}
            {sheet.name} <span className="muted">· {plural(sheet.rowCount, 'row')}</span>
          </label>
        ))}
      </fieldset>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Choose another file
        </button>
        <button type="submit" className="button button-primary">
          Use this sheet
        </button>
      </div>
    </form>
  );
}
