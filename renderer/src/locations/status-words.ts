import type { LocationRow } from '../api/types.js';

/** A location's status in the dashboard's words, in the order the forms offer them. */
export const STATUS_WORDS: Record<LocationRow['status'], string> = {
  open: 'Open',
  temporarily_closed: 'Temporarily closed',
  permanently_closed: 'Permanently closed',
};

/** [status, words] pairs for a select, Open first. */
export const STATUS_CHOICES = Object.entries(STATUS_WORDS) as [LocationRow['status'], string][];
