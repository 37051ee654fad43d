import { describe, expect, it } from 'vitest';
import {
  doneWords,
  editOf,
  previewWords,
  startOf,
  type LabelsChoice,
} from '../../renderer/src/location-edit/bulk-change.js';

/** The bulk change dialog's plain logic: the one request it sends, and its words before and after. */

const labels = (mode: LabelsChoice['mode'], text: string): LabelsChoice => ({ action: 'labels', mode, text });

describe('the bulk change dialog', () => {
  it('starts the labels on Add (a walk\'s "set" wiped them), the status on none: nothing is sent until one is picked', () => {
    expect(startOf('labels')).toEqual({ action: 'labels', mode: 'add', text: '' });
    expect(startOf('status')).toEqual({ action: 'status', status: null });
    expect(editOf({ action: 'status', status: null })).toBeNull();
    expect(editOf({ action: 'status', status: 'open' })).toEqual({ set: { status: 'open' } });
    // The country too: nothing until one is picked (an import given the wrong one is mended so).
    expect(startOf('country')).toEqual({ action: 'country', country: null });
    expect(editOf({ action: 'country', country: null })).toBeNull();
    expect(editOf({ action: 'country', country: 'US' })).toEqual({ set: { country: 'US' } });
  });

  it('sends labels to add or remove as typed, split at commas (the server trims them); Replace sets them', () => {
    expect(editOf(labels('add', 'summer, new '))).toEqual({ add_labels: ['summer', ' new '] });
    expect(editOf(labels('remove', 'café'))).toEqual({ remove_labels: ['café'] });
    expect(editOf(labels('replace', 'a, b'))).toEqual({ set: { labels: 'a, b' } });
    expect(editOf(labels('replace', '  '))).toBeNull();
    expect(editOf(labels('replace', ' , '))).toBeNull();
    expect(editOf({ action: 'clear_labels' })).toEqual({ set: { labels: null } });
    expect(editOf({ action: 'primary_category', text: '' })).toBeNull();
    expect(editOf({ action: 'primary_category', text: ' ' })).toBeNull();
    expect(editOf({ action: 'clear_category' })).toEqual({ set: { primary_category: null } });
  });

  it('sets a website, a week of hours, a city or a state as typed, for the server to read by its rule; blank sends nothing', () => {
    expect(startOf('hours')).toEqual({ action: 'hours', text: '' });
    expect(editOf({ action: 'hours', text: ' ' })).toBeNull();
    expect(editOf({ action: 'hours', text: 'Mon-Fri 9:00-17:00' })).toEqual({ set: { hours: 'Mon-Fri 9:00-17:00' } });
    expect(editOf({ action: 'website', text: '' })).toBeNull();
    expect(editOf({ action: 'website', text: 'example.com' })).toEqual({ set: { website: 'example.com' } });
    expect(editOf({ action: 'city', text: 'Berlin' })).toEqual({ set: { city: 'Berlin' } });
    expect(editOf({ action: 'state', text: '' })).toBeNull();
    expect(editOf({ action: 'state', text: 'BE' })).toEqual({ set: { state: 'BE' } });
  });

  it('has nothing to send while no label to add or remove is typed', () => {
    for (const text of ['', '  ', ' , ,']) {
      expect(editOf(labels('add', text))).toBeNull();
      expect(editOf(labels('remove', text))).toBeNull();
    }
  });

  it('says how many will change before, from the dry run, and how many did after', () => {
    expect(previewWords(labels('add', 'summer, new'), 12, 15)).toBe(
      '12 of the 15 locations will change; 3 already have them.',
    );
    expect(previewWords(labels('remove', 'café'), 2, 15)).toBe('2 of the 15 locations will change; 13 do not have it.');
    expect(previewWords(labels('add', 'summer'), 0, 15)).toBe('None will change: all 15 locations already have it.');
    expect(previewWords(labels('add', 'summer'), 15, 15)).toBe('All 15 locations will change.');
    expect(previewWords(labels('add', 'summer'), 2, 2)).toBe('Both locations will change.');
    expect(previewWords(labels('add', 'summer'), 0, 2)).toBe('None will change: both already have it.');
    expect(previewWords({ action: 'clear_category' }, 2, 5)).toBe('2 of the 5 locations will change; 3 have none.');
    expect(previewWords(labels('add', 'bakery'), 2, 3)).toBe('2 of the 3 locations will change; 1 already has it.');
    expect(previewWords(labels('replace', 'a, b'), 1, 3)).toBe(
      '1 of the 3 locations will change; 2 already have them.',
    );
    expect(previewWords(labels('remove', 'a, b'), 0, 1)).toBe('The location will not change.');
    expect(doneWords(labels('remove', 'a, b'), 4, 15)).toBe('4 locations changed; 11 had none of them.');
    expect(doneWords({ action: 'status', status: 'open' }, 2, 2)).toBe('2 locations changed.');
    expect(doneWords({ action: 'status', status: 'open' }, 1, 3)).toBe('1 location changed; 2 already had it.');
  });
});
