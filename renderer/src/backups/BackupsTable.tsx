import { useState } from 'react';
import { formatBytes, formatCount } from '../format.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { SimpleTableHead } from '../components/SimpleTableHead.js';
import { CopyButton } from '../components/CopyButton.js';
import { downloadBackup, type BackupRow } from './queries.js';
import { restoreCommand } from './restore-command.js';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const KIND_LABELS: Record<BackupRow['kind'], string> = {
  auto: 'Automatic',
  manual: 'Manual',
  'before-restore': 'Before a restore',
};

const count = (value: number | null) => (value === null ? '—' : formatCount(value));

function DownloadButton({ backup }: { backup: BackupRow }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const download = () => {
    setBusy(true);
    setError(null);
    downloadBackup(backup.name).then(
      () => setBusy(false),
      (failure: unknown) => {
        setBusy(false);
        setError(failure);
      },
    );
  };
  return (
    <>
      <button type="button" className="button button-quiet" onClick={download} disabled={busy}>
        {busy ? 'Downloading…' : 'Download'}
        <span className="sr-only"> {backup.name}</span>
      </button>
      {error !== null && <ErrorNotice error={error} />}
    </>
  );
}

/** The backups, newest first: when, what kind, how big and what each holds. */
export function BackupsTable({ backups }: { backups: BackupRow[] }) {
  return (
    <table className="simple-table" aria-label="Backups">
      <SimpleTableHead columns={['Made', 'Kind', 'Size', 'Clients', 'Locations']} />
      <tbody>
        {backups.map((backup) => (
          <tr key={backup.name} data-testid="backup-row">
            <td>
              <time dateTime={backup.created_at}>{dateTime.format(new Date(backup.created_at))}</time>
            </td>
            <td>{KIND_LABELS[backup.kind]}</td>
            <td>{formatBytes(backup.size)}</td>
            <td>{count(backup.clients)}</td>
            <td>{count(backup.locations)}</td>
            <td>
              <div className="backup-actions">
                <DownloadButton backup={backup} />
                {/* Any backup, not only the newest: its command (BackupsFolder shows the newest's). */}
                <CopyButton text={restoreCommand(backup)} what={backup.name} label="Copy restore command" />
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
