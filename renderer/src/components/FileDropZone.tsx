import { useState, type DragEvent } from 'react';

export const TEMPLATE_CSV = '/locations-template.csv';

export function hasFiles(event: DragEvent | globalThis.DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/** Where a CSV goes: dropped on the zone or picked with the button; a template shows the expected headers. */
export function FileDropZone({ onFile }: { onFile: (file: File) => void }) {
  const [over, setOver] = useState(false);

  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    // The page behind the dialog listens for drops too; this one is handled here.
    event.stopPropagation();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  };

  return (
    <div
      className={`drop-zone ${over ? 'drop-zone-over' : ''}`}
      data-testid="drop-zone"
      onDragEnter={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setOver(true);
      }}
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={drop}
    >
      <p className="drop-zone-title">Drop a CSV or Excel (.xlsx) file here</p>
      <p className="muted">
        Google Business Profile sheets, Excel exports, semicolon files and Excel's “Unicode Text” (.txt, .tsv) all work.
      </p>
      <label className="button button-primary file-button">
        <input
          type="file"
          accept=".csv,.tsv,.txt,.xlsx,text/csv,text/plain,text/tab-separated-values,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          className="sr-only"
          data-testid="file-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) onFile(file);
            event.target.value = '';
          }}
        />
        Choose a file…
      </label>
      <p className="drop-zone-template">
        Not sure about the columns?{' '}
        <a href={TEMPLATE_CSV} download="locations-template.csv">
          Download the template CSV
        </a>
      </p>
    </div>
  );
}
