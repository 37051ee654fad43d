import { useState } from 'react';

/**
 * Copies `text` to the clipboard, and says so. Not shown where the browser has no clipboard to write to
 * (a page not served from this computer): the text beside it can still be selected.
 */
export function CopyButton({
  text,
  what,
  label = 'Copy',
}: {
  text: string;
  /** For screen readers, after the label: "Copy" and "the folder's path". */ what: string;
  /** What the button shows: "Copy", or "Copy the restore command" where no text is beside it. */
  label?: string;
}) {
  const [copied, setCopied] = useState(false);
  if (typeof navigator.clipboard?.writeText !== 'function') return null;
  const copy = () =>
    void navigator.clipboard.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <button type="button" className="button button-quiet" onClick={copy}>
      {copied ? 'Copied' : label}
      <span className="sr-only"> {what}</span>
    </button>
  );
}
