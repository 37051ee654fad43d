import fs from 'node:fs';
import path from 'node:path';
import { flushToDisk } from '../db/backup.js';
import type { Db } from '../db/open.js';
import { decimalText } from '../locations/decimal.js';
import { changedAtSql } from '../locations/queries.js';
import type { Command } from './command.js';
import { countWords } from './count-words.js';
import { CliError, UsageError } from './errors.js';
import { fileErrorInWords } from '../file-words.js';
import { theOrganization, withStore } from './store.js';
import { refuseProtectedTarget } from './targets.js';

// Internal to the server (the duplicate finder's keys, the health notes' bits, the operation that made the
// row and its change count, which only undo reads): not the user's data.
const INTERNAL_COLUMNS = new Set(['place_hash', 'match_hash', 'health_flags', 'created_by', 'revision']);

/** A column as the export reads it: a location never changed has no updated_at of its own (its created_at). */
const exported = (name: string) => (name === 'updated_at' ? `${changedAtSql('l.')} AS updated_at` : `l."${name}"`);

type Row = Record<string, unknown>;

/** Writes a file piece by piece (100,000 locations never sit in memory as one text), 0600, then renames it. */
class PlainFile {
  private readonly fd: number;
  private readonly temporary: string;

  constructor(private readonly file: string) {
    this.temporary = `${file}.partial-${process.pid}`;
    fs.rmSync(this.temporary, { force: true });
    this.fd = fs.openSync(this.temporary, 'wx', 0o600);
  }
  write(text: string): void {
    fs.writeSync(this.fd, text);
  }
  finish(): void {
    fs.closeSync(this.fd);
    flushToDisk(this.temporary);
    fs.renameSync(this.temporary, this.file);
  }
  abandon(): void {
    fs.closeSync(this.fd);
    fs.rmSync(this.temporary, { force: true });
  }
}

function locationColumns(db: Db): string[] {
  const columns = db.prepare('SELECT * FROM locations LIMIT 0').columns();
  return columns.map((column) => column.name).filter((name) => !INTERNAL_COLUMNS.has(name));
}

function locationsOf(db: Db, organizationId: string): IterableIterator<Row> {
  const columns = locationColumns(db).map(exported).join(', ');
  // Clients in name order, each one's locations in import order (the dashboard's orders).
  return db
    .prepare(
      `SELECT c.name AS client_name, ${columns} FROM locations l JOIN clients c ON c.id = l.client_id
       WHERE c.organization_id = ? ORDER BY c.name COLLATE NOCASE, c.id, l.rowid`,
    )
    .iterate(organizationId) as IterableIterator<Row>;
}

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or CR before one of them) as a formula
 * (OWASP, "CSV Injection"): such a cell gets a leading apostrophe, whatever follows, line breaks included.
 */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'number' ? decimalText(value) : String(value);
  if (/^\s*[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function writeCsv(out: PlainFile, db: Db, organizationId: string): number {
  const header = ['client_name', ...locationColumns(db)];
  out.write(`${header.join(',')}\r\n`);
  let count = 0;
  for (const row of locationsOf(db, organizationId)) {
    out.write(`${header.map((name) => csvCell(row[name])).join(',')}\r\n`);
    count += 1;
  }
  return count;
}

function writeJson(out: PlainFile, db: Db, organizationId: string): number {
  const organization = db.prepare('SELECT id, name, created_at FROM organizations WHERE id = ?').get(organizationId);
  const clients = db
    .prepare(
      'SELECT id, name, industry, website, created_at FROM clients WHERE organization_id = ? ORDER BY name COLLATE NOCASE, id',
    )
    .all(organizationId);
  // Never the password hashes: a user who leaves takes the data, not the credentials.
  const users = db
    .prepare('SELECT email, role, client_id, created_at FROM users WHERE organization_id = ? ORDER BY email')
    .all(organizationId);
  const head = { format: 'agency-desk-export', version: 1, exported_at: new Date().toISOString(), organization };
  out.write(
    `${JSON.stringify(head).slice(0, -1)},"clients":${JSON.stringify(clients)},"users":${JSON.stringify(users)},"locations":[`,
  );
  let count = 0;
  for (const { client_name: _name, ...location } of locationsOf(db, organizationId)) {
    out.write(`${count === 0 ? '\n' : ',\n'}${JSON.stringify(location)}`);
    count += 1;
  }
  out.write('\n]}\n');
  return count;
}

export const exportData: Command = {
  name: 'export',
  summary: 'write a PLAIN, unencrypted copy of the data to a .csv or .json file (to leave the app)',
  details:
    'CSV: one line a location, with its client\'s name. JSON: the organization, its clients, its users (without passwords) and every location. The file is NOT encrypted: anyone who can read it sees all of it. For a copy to keep, use "agency-desk backup" instead.',
  args: [{ name: 'FILE', description: 'ends in .csv or .json; replaced if it exists' }],
  async run({ args, config: readConfig }) {
    const file = path.resolve(args[0]!);
    const format = path.extname(file).toLowerCase();
    if (format !== '.csv' && format !== '.json') throw new UsageError('export writes a .csv or a .json file');
    const config = readConfig();
    refuseProtectedTarget(args[0]!, file, config);
    await withStore(config, (store) => {
      const organizationId = theOrganization(store);
      let out: PlainFile;
      try {
        out = new PlainFile(file);
      } catch (error) {
        throw new CliError(`Cannot write ${file}: ${fileErrorInWords(error)}`);
      }
      let count: number;
      try {
        count = (format === '.csv' ? writeCsv : writeJson)(out, store.db, organizationId);
        out.finish();
      } catch (error) {
        out.abandon();
        throw new CliError(`Cannot write ${file}: ${fileErrorInWords(error)}`);
      }
      console.error(
        `WARNING: ${file} is NOT encrypted. Anyone who can read it sees every client and location: delete it once you no longer need it.`,
      );
      console.log(`Exported ${countWords(count, 'location')} to ${file}`);
    });
  },
};
