import { createRequire } from 'node:module';
import path from 'node:path';

/** The driver's addon as `npm install` built it, for Node: tests hand it as a nativeBinding the way npm start hands Electron's. */
export const NODE_DRIVER_BUILD = path.join(
  path.dirname(createRequire(import.meta.url).resolve('better-sqlite3-multiple-ciphers/package.json')),
  'build',
  'Release',
  'better_sqlite3.node',
);
