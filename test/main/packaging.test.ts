import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '../..');
const config = parse(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as {
  files: string[];
  asarUnpack: string[];
  electronFuses: Record<string, boolean>;
  linux: { target: string[] };
  win: { target: string[] };
  mac: { target: string[] };
};

/** electron-builder's rule: patterns apply in order, and the last one that matches decides. */
function ships(file: string): boolean {
  let included = false;
  for (const pattern of config.files) {
    const negated = pattern.startsWith('!');
    if (minimatch(file, negated ? pattern.slice(1) : pattern, { dot: true })) included = !negated;
  }
  return included;
}

describe('electron-builder.yml', () => {
  it("is valid against electron-builder's own schema", () => {
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/app-builder-lib/scheme.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
  });

  it('builds AppImage and deb, NSIS and dmg', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
  });

  it.each([
    'package.json',
    'dist/main/index.js',
    'dist/main/preload.cjs',
    'dist/main/unlock-preload.cjs',
    'dist/server/cli.js',
    'dist/server/db/writer-worker.js',
    'dist/renderer/index.html',
    'dist/renderer/assets/index-abc123.js',
  ])('ships %s', (file) => {
    expect(ships(file)).toBe(true);
  });

  it.each([
    'dist/main/index.js.map',
    'dist/main/index.d.ts',
    'dist/main/preload.d.cts',
    'dist/main/launch.js',
    'dist/tsbuildinfo/main.tsbuildinfo',
    'main/index.ts',
    'server/start.ts',
    'test/main/desktop.test.ts',
    'renderer/src/main.tsx',
    'electron-builder.yml',
    'node_modules/better-sqlite3-multiple-ciphers/deps/sqlite3/sqlite3.c',
  ])('leaves out %s', (file) => {
    expect(ships(file)).toBe(false);
  });

  it('unpacks native modules from the asar and flips the security fuses', () => {
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });
});
