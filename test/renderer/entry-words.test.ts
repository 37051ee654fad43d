import { describe, expect, it } from 'vitest';
import { entryInWords, undoable, type HistoryEntry } from '../../renderer/src/history/entry-words.js';
import { loadPhoneFormat, phoneText } from '../../renderer/src/phone-text.js';

const base: HistoryEntry = {
  id: '00000000-0000-4000-8000-000000000001',
  at: '2026-11-23T10:00:00.000Z',
  actor: { type: 'user', id: null, email: 'maria@agency.example', name: 'maria@agency.example', token_id: null },
  action: 'client.created',
  target: { type: 'client', id: null, name: 'Bluebird Coffee' },
  client_id: null,
  changes: null,
  summary: null,
  operation_id: null,
  undone_by: null,
};

/** A location's edit, as the trail keeps it. */
const locationUpdate = (name: string, changes: HistoryEntry['changes']): HistoryEntry => ({
  ...base,
  action: 'location.updated',
  target: { type: 'location', id: null, name },
  changes,
});

describe('the history in words', () => {
  it('names a person by e-mail, a script by its token, the command line by the machine account', () => {
    expect(entryInWords(base)).toBe('maria@agency.example created the client Bluebird Coffee');
    const script = { ...base, actor: { ...base.actor, type: 'token' as const, name: 'Nightly sync' } };
    expect(entryInWords(script)).toBe('Script “Nightly sync” created the client Bluebird Coffee');
    const cli = {
      ...base,
      actor: { type: 'system' as const, id: null, email: null, name: 'the command line (maria)', token_id: null },
    };
    expect(entryInWords(cli)).toBe('The command line (maria) created the client Bluebird Coffee');
  });

  it("words Agency Desk's own rescore after an upgrade, with or without scores changed", () => {
    const rescored = {
      ...base,
      actor: { type: 'system' as const, id: null, email: null, name: 'Agency Desk', token_id: null },
      action: 'locations.rescored',
      target: { type: 'client', id: null, name: 'Bluebird Coffee' },
      summary: { rules: 2, count: 1234 },
    };
    expect(entryInWords(rescored)).toBe('Agency Desk scored 1,234 locations again under its updated rules');
    expect(entryInWords({ ...rescored, summary: { rules: 2, count: 0 } })).toBe(
      'Agency Desk checked every location under its updated rules: no score changed',
    );
    expect(undoable({ ...rescored, operation_id: null })).toBe(false);
  });

  it('words an import by its counts, and an unknown action plainly', () => {
    const imported = {
      ...base,
      action: 'locations.imported',
      summary: { file_name: 'boston.csv', created: 180, updated: 20, unchanged: 0 },
    };
    expect(entryInWords(imported)).toBe('maria@agency.example imported boston.csv: 180 created, 20 updated');
    const reset = {
      ...base,
      action: 'user.updated',
      target: { type: 'user', id: null, name: 'sam@agency.example' },
      changes: { password: { from: '(hidden)', to: '(changed)' } },
    };
    expect(entryInWords(reset)).toBe('maria@agency.example changed the password of the user sam@agency.example');
    const throttled = {
      ...base,
      actor: { type: 'system' as const, id: null, email: null, name: 'the sign-in throttle', token_id: null },
      action: 'user.sign_in_throttled',
      target: { type: 'user', id: null, name: 'sam@agency.example' },
      summary: { failures: 6, address: '127.0.0.1' },
    };
    expect(entryInWords(throttled)).toBe(
      'The sign-in throttle held back sign-ins to sam@agency.example after 6 wrong passwords from 127.0.0.1',
    );
    expect(entryInWords({ ...base, action: 'backup.made', target: { type: 'backup', id: null, name: 'x.db' } })).toBe(
      'maria@agency.example: backup.made x.db',
    );
  });

  it('words hours, labels and a status as the dashboard shows them, not as JSON', () => {
    const edited = locationUpdate('Pike Place', {
      hours: { from: null, to: { mon: [['07:00', '19:00']], sun: [] } },
      labels: { from: ['pnw'], to: ['pnw', 'flagship'] },
      status: { from: 'open', to: 'temporarily_closed' },
    });
    expect(entryInWords(edited)).toBe(
      'maria@agency.example changed Pike Place: the hours from — to Mon 07:00–19:00 · Sun closed, the labels from pnw to pnw, flagship, the status from open to temporarily closed',
    );
    // A change of hours names the days it moves, not the whole week twice (a walk).
    const week = { mon: [['09:00', '17:00']], tue: [['09:00', '17:00']], sat: [['10:00', '14:00']] };
    const saturday = locationUpdate('Denver', { hours: { from: week, to: { ...week, sat: undefined } } });
    expect(entryInWords(saturday)).toBe(
      'maria@agency.example changed the hours of Denver from Sat 10:00–14:00 to Sat not given',
    );
  });

  it('words one change as the README does: the field of the location, from, to, a phone grouped once it can be', async () => {
    const phone = locationUpdate('Boston Downtown', { phone: { from: '+16175550100', to: '+442079460958' } });
    // Before the phone library has loaded (the history's components load it), a phone reads as stored.
    expect(entryInWords(phone)).toBe(
      'maria@agency.example changed the phone of Boston Downtown from +16175550100 to +442079460958',
    );
    await loadPhoneFormat();
    expect(entryInWords(phone)).toBe(
      'maria@agency.example changed the phone of Boston Downtown from +1 617 555 0100 to +44 20 7946 0958',
    );
    // A value that is no phone number (none is stored so, but the trail is read as it is) reads as it is.
    expect(phoneText('call us')).toBe('call us');
  });

  it('names the client or user first, then the changes, so that the subject never trails a long list', () => {
    const client = (changes: HistoryEntry['changes']) => ({
      ...base,
      action: 'client.updated',
      target: { type: 'client', id: null, name: 'Bluebird' },
      changes,
    });
    expect(
      entryInWords(client({ name: { from: 'Bluebird Coffee', to: 'Bluebird' }, industry: { from: null, to: 'Food' } })),
    ).toBe(
      'maria@agency.example changed the client Bluebird: the name from Bluebird Coffee to Bluebird, the industry from — to Food',
    );
    expect(entryInWords(client({ website: { from: null, to: 'https://bluebird.example' } }))).toBe(
      'maria@agency.example changed the website of the client Bluebird from — to https://bluebird.example',
    );
    const role = { ...base, action: 'user.updated', target: { type: 'user', id: null, name: 'sam@agency.example' } };
    expect(entryInWords({ ...role, changes: { role: { from: 'Viewer', to: 'Admin' } } })).toBe(
      'maria@agency.example changed the role of the user sam@agency.example from Viewer to Admin',
    );
  });

  it('says a bulk change that changed nothing, and offers no undo for it', () => {
    const bulk = (count: number) => ({
      ...base,
      action: 'locations.edited',
      operation_id: 'op',
      summary: { count, of: 3, set: { status: 'temporarily_closed' } },
    });
    expect(entryInWords(bulk(3))).toBe(
      'maria@agency.example set the status to temporarily closed on 3 locations at once',
    );
    expect(entryInWords(bulk(0))).toBe(
      'maria@agency.example set the status to temporarily closed on 3 locations, which had it already: nothing changed',
    );
    expect([undoable(bulk(3)), undoable(bulk(0))]).toEqual([true, false]);
  });

  it('says labels added to and removed from many locations, and what a change of them all at once did', () => {
    const bulk = (summary: Record<string, unknown>) => ({
      ...base,
      action: 'locations.edited',
      operation_id: 'op',
      summary: { count: 15, of: 15, ...summary },
    });
    expect(entryInWords(bulk({ add_labels: ['x', 'y'] }))).toBe(
      'maria@agency.example added the labels x, y to 15 locations',
    );
    expect(entryInWords(bulk({ remove_labels: ['café'], count: 2 }))).toBe(
      'maria@agency.example removed the label café from 2 locations',
    );
    expect(entryInWords(bulk({ add_labels: ['summer'], remove_labels: ['flagship', 'café'] }))).toBe(
      'maria@agency.example added the label summer and removed the labels flagship, café on 15 locations at once',
    );
    expect(entryInWords(bulk({ set: { city: 'Seattle' }, add_labels: ['summer'] }))).toBe(
      'maria@agency.example set the city to Seattle and added the label summer on 15 locations at once',
    );
    // Fields apart by semicolons: a list of labels holds commas (a walk could not tell where the hours began).
    expect(entryInWords(bulk({ set: { labels: ['pnw', 'flagship'], country: 'DE' } }))).toBe(
      'maria@agency.example set the labels to pnw, flagship; the country to DE on 15 locations at once',
    );
    expect(entryInWords(bulk({ add_labels: ['x', 'y'], count: 0 }))).toBe(
      'maria@agency.example added the labels x, y to 15 locations, which had them already: nothing changed',
    );
    expect(entryInWords(bulk({ remove_labels: ['café'], count: 0 }))).toBe(
      'maria@agency.example removed the label café from 15 locations, none of which had it: nothing changed',
    );
    expect([undoable(bulk({ add_labels: ['x'] })), undoable(bulk({ add_labels: ['x'], count: 0 }))]).toEqual([
      true,
      false,
    ]);
  });

  it('names the first locations a bulk change or delete touched, and counts the rest (found by a walk)', () => {
    const deleted = (count: number, names: string[]) => ({
      ...base,
      action: 'locations.deleted',
      summary: { count, names },
    });
    expect(entryInWords(deleted(2, ['Pike Place', 'Mission']))).toBe(
      'maria@agency.example deleted 2 locations (Pike Place and Mission)',
    );
    expect(entryInWords(deleted(1204, ['Pike Place', 'Mission', 'Ballard']))).toBe(
      `maria@agency.example deleted ${(1204).toLocaleString()} locations (Pike Place, Mission, Ballard and ${(1201).toLocaleString()} more)`,
    );
    const edited = {
      ...base,
      action: 'locations.edited',
      summary: { count: 4, of: 5, set: { status: 'open' }, names: ['A', 'B', 'C'] },
    };
    expect(entryInWords(edited)).toBe(
      'maria@agency.example set the status to open on 4 locations at once (A, B, C and 1 more)',
    );
  });

  it('says a restore, by Agency Desk itself', () => {
    const restored = {
      ...base,
      actor: { type: 'system' as const, id: null, email: null, name: null, token_id: null },
      action: 'database.restored',
      target: { type: 'backup', id: null, name: 'manual-2026-11-25T07-21-13Z.db' },
      summary: { clients: 2, locations: 1 },
    };
    expect(entryInWords(restored)).toMatch(
      /restored the data from the backup manual-2026-11-25T07-21-13Z\.db \(2 clients, 1 location\); what was done since is in the backup made before it$/,
    );
  });

  it('counts as the rest of the dashboard does: "1 location", "2,255 created" (in the user’s locale)', () => {
    const many = (1204).toLocaleString();
    const deleted = (count: number) => ({ ...base, action: 'locations.deleted', summary: { count } });
    expect(entryInWords(deleted(1))).toBe('maria@agency.example deleted 1 location');
    expect(entryInWords(deleted(1204))).toBe(`maria@agency.example deleted ${many} locations`);
    const edited = { ...base, action: 'locations.edited', summary: { count: 1, of: 1, set: { labels: ['wifi'] } } };
    expect(entryInWords(edited)).toBe('maria@agency.example set the labels to wifi on 1 location at once');
    const imported = { ...base, action: 'locations.imported', summary: { file_name: null, created: 1204 } };
    expect(entryInWords(imported)).toBe(`maria@agency.example imported a file: ${many} created`);
  });

  it('names what an undo reverted, and offers no Undo for what was undone', () => {
    const imported = {
      ...base,
      action: 'locations.imported',
      operation_id: '00000000-0000-4000-8000-00000000000a',
      summary: { file_name: 'boston.csv', created: 2 },
    };
    const undo = {
      ...base,
      action: 'operation.undone',
      target: { type: 'operation', id: imported.operation_id, name: 'import' },
      summary: { removed: 2, restored: 0 },
    };
    expect(entryInWords(undo, [imported])).toBe(
      'maria@agency.example undid “imported boston.csv: 2 created”: 2 removed',
    );
    // Without the reverted entry at hand (another page of the history), by the operation's kind.
    expect(entryInWords(undo)).toBe('maria@agency.example undid an import: 2 removed');
    // The undo of that undo puts back what it reverted: "redid", the first change named, a conflict counted as one.
    const redo = {
      ...base,
      action: 'operation.undone',
      operation_id: '00000000-0000-4000-8000-00000000000c',
      target: { type: 'operation', id: '00000000-0000-4000-8000-00000000000b', name: 'undo' },
      summary: { restored: 1, conflicts: 1 },
    };
    const undoWithId = { ...undo, operation_id: '00000000-0000-4000-8000-00000000000b' };
    expect(entryInWords(redo, [redo, undoWithId, imported])).toBe(
      'maria@agency.example redid “imported boston.csv: 2 created”: 1 restored, 1 conflict',
    );
    expect(entryInWords(redo, [redo, undoWithId])).toBe('maria@agency.example redid an import: 1 restored, 1 conflict');
    expect(entryInWords(redo)).toBe('maria@agency.example redid an undone change: 1 restored, 1 conflict');
    expect(undoable(imported)).toBe(true);
    expect(undoable({ ...imported, undone_by: '00000000-0000-4000-8000-00000000000b' })).toBe(false);
    // An import that created and updated nothing (a sheet synced again unchanged) has nothing to undo.
    const nothing = { ...imported, summary: { file_name: 'boston.csv', created: 0, updated: 0, unchanged: 2 } };
    expect(undoable(nothing)).toBe(false);
    expect(undoable({ ...nothing, summary: { ...nothing.summary, updated: 1 } })).toBe(true);
  });

  it('words the saved column mappings', () => {
    const mapping = { ...base, action: 'mapping.created', target: { type: 'mapping', id: null, name: 'gbp.csv' } };
    expect(entryInWords(mapping)).toBe('maria@agency.example saved the column mapping “gbp.csv”');
  });
});
