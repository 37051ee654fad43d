import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Ajv } from 'ajv';
import { minimatch } from 'minimatch';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openDatabase } from '../../server/db/open.js';
import { outsideAsar } from '../../server/db/thread.js';
import { randomKey, tempDir } from '../helpers/app.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

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
  // Production dependencies are added by electron-builder itself; `files` can only leave parts out.
  let included = file.startsWith('node_modules/');
  for (const pattern of config.files) {
    const negated = pattern.startsWith('!');
    if (minimatch(file, negated ? pattern.slice(1) : pattern, { dot: true })) included = !negated;
  }
  return included;
}

/** A shipped file that goes to app.asar.unpacked instead of into the archive. */
function unpacked(file: string): boolean {
  return ships(file) && config.asarUnpack.some((pattern) => minimatch(file, pattern, { dot: true }));
}

/** Every file below a folder, as paths relative to `root` with forward slashes. */
function filesBelow(root: string, folder: string): string[] {
  return fs
    .readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

// ES modules, as tsc emits them under package.json's "type": "module" (transpileModule cannot see it).
const COMPILER_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2022,
  verbatimModuleSyntax: true,
};

/**
 * What a packaged app's resources/app.asar.unpacked holds, laid out in `resources`: the server
 * transpiled as `npm run build` compiles it (isolatedModules: file by file), and the shipped files of
 * node_modules and the root that asarUnpack names.
 */
function layOutUnpacked(resources: string): string {
  const unpackedDir = path.join(resources, 'app.asar.unpacked');
  const write = (file: string, text: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(unpackedDir, file)), { recursive: true });
    fs.writeFileSync(path.join(unpackedDir, file), text);
  };
  for (const source of filesBelow(ROOT, 'server').filter((file) => file.endsWith('.ts'))) {
    const output = `dist/${source.replace(/\.ts$/, '.js')}`;
    if (!unpacked(output)) continue;
    const text = fs.readFileSync(path.join(ROOT, source), 'utf8');
    write(output, ts.transpileModule(text, { compilerOptions: COMPILER_OPTIONS, fileName: source }).outputText);
  }
  const packageFolders = config.asarUnpack.flatMap((pattern) => /^(node_modules\/.+)\/\*\*$/.exec(pattern)?.[1] ?? []);
  for (const folder of packageFolders) {
    for (const file of filesBelow(ROOT, folder))
      if (unpacked(file)) write(file, fs.readFileSync(path.join(ROOT, file)));
  }
  if (unpacked('package.json')) write('package.json', fs.readFileSync(path.join(ROOT, 'package.json')));
  return unpackedDir;
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
    'dist/server/store/writer-worker.js',
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

  it.each([
    'node_modules/better-sqlite3-multiple-ciphers/build/Release/better_sqlite3.node',
    'node_modules/argon2/prebuilds/linux-x64/argon2.glibc.node',
    'package.json',
    'dist/server/store/writer-worker.js',
    'dist/server/backups/backup-worker.js',
    'dist/server/db/open.js',
    'dist/server/locations/import.js',
    'node_modules/libphonenumber-js/min/index.js',
    'node_modules/better-sqlite3-multiple-ciphers/lib/index.js',
    'node_modules/bindings/bindings.js',
    'node_modules/@sinclair/typebox/build/esm/index.mjs',
    'node_modules/i18n-iso-countries/langs/en.json',
  ])('unpacks %s from the asar', (file) => {
    expect(unpacked(file)).toBe(true);
  });

  it.each(['dist/main/index.js', 'dist/renderer/index.html', 'node_modules/fastify/fastify.js'])(
    'keeps %s inside the asar',
    (file) => {
      expect(ships(file)).toBe(true);
      expect(unpacked(file)).toBe(false);
    },
  );

  it.each([
    [
      'file:///C:/Program%20Files/Agency%20Desk/resources/app.asar/dist/server/store/writer-worker.js',
      'file:///C:/Program%20Files/Agency%20Desk/resources/app.asar.unpacked/dist/server/store/writer-worker.js',
    ],
    [
      'file:///opt/agency-desk/dist/server/store/writer-worker.js',
      'file:///opt/agency-desk/dist/server/store/writer-worker.js',
    ],
    [
      'file:///home/me/app.asar.unpacked/dist/server/store/writer-worker.js',
      'file:///home/me/app.asar.unpacked/dist/server/store/writer-worker.js',
    ],
  ])('the writer worker at %s starts from %s', (inApp, started) => {
    expect(outsideAsar(new URL(inApp)).href).toBe(started);
  });

  it('unpacks all the worker threads load: each starts from app.asar.unpacked with those files alone', async () => {
    const resources = tempDir('agency-desk-resources-');
    cleanups.push(() => fs.rmSync(resources, { recursive: true, force: true }));
    const unpackedDir = layOutUnpacked(resources);
    const file = path.join(resources, 'agency-desk.db');
    const key = randomKey();
    openDatabase(file, key, { create: true }).close();

    // The URLs the packaged app computes (import.meta.url inside app.asar), moved out of the archive:
    // the writer thread and the backup thread.
    for (const script of [
      ['store', 'writer-worker.js'],
      ['backups', 'backup-worker.js'],
    ]) {
      const inAsar = pathToFileURL(path.join(resources, 'app.asar', 'dist', 'server', ...script));
      const url = outsideAsar(inAsar);
      expect(fileURLToPath(url)).toBe(path.join(unpackedDir, 'dist', 'server', ...script));
      const worker = new Worker(url, { workerData: { file, key } });
      const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
      const started = await new Promise<unknown>((resolve) => {
        worker.once('message', resolve);
        worker.once('error', resolve);
      });
      expect(started).toBe('ready');
      worker.postMessage('close');
      expect(await exited).toBe(0);
    }
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
