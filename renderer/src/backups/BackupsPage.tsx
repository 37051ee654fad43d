import { ErrorNotice } from '../components/ErrorNotice.js';
import { BackupsFolder } from './BackupsFolder.js';
import { BackupsTable } from './BackupsTable.js';
import { useBackUpNow, useBackups } from './queries.js';

function BackUpNowButton() {
  const backUp = useBackUpNow();
  return (
    <div className="page-actions">
      <button
        type="button"
        className="button button-primary"
        onClick={() => backUp.mutate()}
        disabled={backUp.isPending}
      >
        {backUp.isPending ? 'Backing up…' : 'Back up now'}
      </button>
      {backUp.isSuccess && <p role="status">Backup made: {backUp.data.name}</p>}
      {backUp.isError && <ErrorNotice error={backUp.error} />}
    </div>
  );
}

/** Admins: the encrypted backups the server keeps in its data folder (README: "Automatic backups"). */
export function BackupsPage() {
  const backups = useBackups();
  const newest = backups.data?.[0];
  return (
    <section aria-labelledby="backups-title">
      <div className="page-header">
        <h1 id="backups-title">Backups</h1>
        <BackUpNowButton />
      </div>
      <p className="muted">
        Agency Desk makes an encrypted backup every day and keeps the last 7 days and 4 weeks. A backup made with “Back
        up now” is manual: it is kept until you delete it from the backups folder. Each opens only with this database’s
        key. To restore one, stop Agency Desk and run <code>agency-desk restore</code> with its file (below, the newest;
        from a checkout without <code>npm link</code>, <code>node dist/server/cli.js restore</code>), or use “Restore
        from backup…” in the desktop app’s File menu.
      </p>
      {newest && <BackupsFolder newest={newest} />}
      {backups.isPending && <p>Loading…</p>}
      {backups.isError && <ErrorNotice error={backups.error} />}
      {backups.data?.length === 0 && (
        <p className="empty-state">
          No backup yet: the first is made within a minute of the start, or now with “Back up now”.
        </p>
      )}
      {backups.data && backups.data.length > 0 && <BackupsTable backups={backups.data} />}
    </section>
  );
}
