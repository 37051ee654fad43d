import { CopyButton } from '../components/CopyButton.js';
import { formatDateTime, plural } from '../format.js';
import type { BackupRow } from './queries.js';
import { folderOf, restoreCommand } from './restore-command.js';
import './backups.css';

/** Where the backups are on this computer, and the command that restores the newest, each to select or copy. */
export function BackupsFolder({ newest }: { newest: BackupRow }) {
  const folder = folderOf(newest);
  const command = restoreCommand(newest);
  return (
    <dl className="backups-where">
      <dt>Backups folder</dt>
      <dd>
        <code className="copyable" data-testid="backups-folder">
          {folder}
        </code>
        {/* A new newest backup is another text: the button says "Copy" again. */}
        <CopyButton key={folder} text={folder} what="the folder's path" />
      </dd>
      <dt>Restore the newest</dt>
      <dd>
        <code className="copyable" data-testid="restore-command">
          {command}
        </code>
        <CopyButton key={command} text={command} what="the restore command" />
        {/* A walk saw a start-up backup of no client offered beside a day's work, with no word of its age. */}
        <span className="muted block" data-testid="restore-newest-words">
          It brings the data back as it was on {formatDateTime(newest.created_at)}
          {newest.clients !== null && newest.locations !== null
            ? ` (${plural(newest.clients, 'client')}, ${plural(newest.locations, 'location')})`
            : ''}
          : every change made since is lost. To keep today’s work in a backup, use “Back up now” first.
        </span>
      </dd>
    </dl>
  );
}
