import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../server/db/open.js';
import { insertClient } from '../../server/clients/queries.js';
import { insertOrganization, insertUser } from '../../server/users/queries.js';

/** Every file below dir (recursively), as paths relative to dir, sorted. */
export function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The SHA-256 of every file below dir, by relative path. */
export function fileDigests(dir: string): Record<string, string> {
  return Object.fromEntries(
    filesUnder(dir).map((file) => [
      file,
      createHash('sha256')
        .update(fs.readFileSync(path.join(dir, file)))
        .digest('hex'),
    ]),
  );
}

/** "file: marker" for every marker found in the bytes of a file below dir (as UTF-8 or UTF-16LE). */
export function plaintextHits(dir: string, markers: readonly string[]): string[] {
  const hits: string[] = [];
  for (const file of filesUnder(dir)) {
    const bytes = fs.readFileSync(path.join(dir, file));
    for (const marker of markers) {
      if (bytes.includes(Buffer.from(marker, 'utf8')) || bytes.includes(Buffer.from(marker, 'utf16le'))) {
        hits.push(`${file}: ${marker}`);
      }
    }
  }
  return hits;
}

export interface DataSnapshot {
  counts: Record<string, number>;
  /** SHA-256 over every row of every table, in rowid (or primary key) order. */
  digest: string;
}

/**
 * What the database holds, to compare before and after a request that should change nothing; `except`
 * leaves out rows by table (an SQL condition on that table's rows).
 */
export function dataSnapshot(db: Db, except: Record<string, string> = {}): DataSnapshot {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  const hash = createHash('sha256');
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const where = except[table] === undefined ? '' : ` WHERE NOT (${except[table]})`;
    const rows = db.prepare(`SELECT * FROM "${table}"${where} ORDER BY 1`).raw().all() as unknown[][];
    counts[table] = rows.length;
    hash.update(table);
    for (const row of rows) {
      hash.update(JSON.stringify(row.map((value) => (Buffer.isBuffer(value) ? value.toString('hex') : value))));
    }
  }
  return { counts, digest: hash.digest('hex') };
}

/** A second organization with one client, written directly: what a caller of another organization owns. */
export function addOtherOrganizationClient(
  db: Db,
  now: number,
  name = 'Other Agency Client',
): { organizationId: string; clientId: string } {
  const organizationId = insertOrganization(db, 'Other Agency', now);
  const { id } = insertClient(db, organizationId, { name, industry: null, website: null }, now);
  return { organizationId, clientId: id };
}

/** A second organization with one client and an Admin written directly (password hash 'x': it never signs in). */
export function addOtherOrganizationAdmin(
  db: Db,
  now: number,
): { organizationId: string; clientId: string; userId: string } {
  const other = addOtherOrganizationClient(db, now);
  const user = { organizationId: other.organizationId, email: 'outsider@example.com', passwordHash: 'x' };
  return { ...other, userId: insertUser(db, { ...user, role: 'admin', clientId: null }, now).id };
}

export function rowCount(db: Db, table: string): number {
  return db.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number;
}

/** An import row with every listing field, written as a sheet would write them (README: "Location fields"). */
export const EVERY_FIELD_ROW = {
  name: 'Bluebird Downtown',
  store_code: 'BB-001',
  address: '12 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'United States',
  google_place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4',
  phone: '(217) 555-0142',
  website: 'bluebird.example',
  latitude: '39,7817',
  longitude: '-89.6501',
  primary_category: 'Coffee shop',
  labels: 'downtown, flagship',
  status: 'Open',
  hours: 'Mon-Fri 7:00-19:00, Sat 8:00-14:00, Sun closed',
};
