import { STATUS_CHOICES } from '../locations/status-words.js';

/** A status select's options, in the dashboard's words, Open first: the editor's and the bulk edit's. */
export function StatusOptions() {
  return STATUS_CHOICES.map(([value, label]) => (
    <option key={value} value={value}>
      {label}
    </option>
  ));
}
