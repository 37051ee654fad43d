import path from 'node:path';
import envPaths from 'env-paths';
import { DEFAULT_SCHEDULE, type BackupSchedule } from './backups/backups.js';

/** Every AGENCY_DESK_* variable, parsed and validated once at start (README: "Configuration"). */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** AGENCY_DESK_DB_KEY: a passphrase, or 64 hex digits taken as the raw key. */
  dbKey: string | undefined;
  /** AGENCY_DESK_KEY_FILE: a file holding the key, in the same two forms. */
  keyFile: string | undefined;
  /** The first Admin for `serve`, from AGENCY_DESK_ADMIN_EMAIL and _PASSWORD (both, or neither). */
  admin: { email: string; password: string; organizationName: string } | undefined;
  /** Set when only one of the two was given: `serve` refuses that; `init` reads the password alone. */
  adminHalfGiven: boolean;
  logLevel: string;
  /** Automatic backups in <data dir>/backups; null when AGENCY_DESK_BACKUPS=off. */
  backups: BackupSchedule | null;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const DEFAULT_PORT = 4870;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function defaultDataDir(): string {
  return envPaths('agency-desk', { suffix: '' }).data;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset, as for every other variable (Number('') would be port 0).
  const port = env.AGENCY_DESK_PORT ? Number(env.AGENCY_DESK_PORT) : DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`AGENCY_DESK_PORT must be a whole number from 0 to 65535, not "${env.AGENCY_DESK_PORT}"`);
  }
  const logLevel = env.AGENCY_DESK_LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`AGENCY_DESK_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const backups = backupSchedule(env);
  const email = env.AGENCY_DESK_ADMIN_EMAIL;
  const password = env.AGENCY_DESK_ADMIN_PASSWORD;
  return {
    host: env.AGENCY_DESK_HOST || '127.0.0.1',
    port,
    dataDir: path.resolve(env.AGENCY_DESK_DATA_DIR || defaultDataDir()),
    dbKey: env.AGENCY_DESK_DB_KEY || undefined,
    keyFile: env.AGENCY_DESK_KEY_FILE || undefined,
    admin:
      email !== undefined && password !== undefined
        ? { email, password, organizationName: env.AGENCY_DESK_ORG_NAME || 'My agency' }
        : undefined,
    adminHalfGiven: (email === undefined) !== (password === undefined),
    logLevel,
    backups,
  };
}

/** A whole number of `name`, from `min` to `max`; an empty or absent variable is the default. */
function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const text = env[name];
  const value = text ? Number(text) : fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not "${text}"`);
  }
  return value;
}

function backupSchedule(env: NodeJS.ProcessEnv): BackupSchedule | null {
  const switch_ = env.AGENCY_DESK_BACKUPS || 'on';
  if (!['on', 'off'].includes(switch_)) throw new ConfigError('AGENCY_DESK_BACKUPS must be on or off');
  const schedule = {
    keepDaily: wholeNumber(env, 'AGENCY_DESK_BACKUP_KEEP_DAILY', DEFAULT_SCHEDULE.keepDaily, 1, 1000),
    keepWeekly: wholeNumber(env, 'AGENCY_DESK_BACKUP_KEEP_WEEKLY', DEFAULT_SCHEDULE.keepWeekly, 0, 1000),
    everyMs:
      wholeNumber(env, 'AGENCY_DESK_BACKUP_EVERY_MINUTES', DEFAULT_SCHEDULE.everyMs / 60_000, 1, 525_600) * 60_000,
  };
  return switch_ === 'off' ? null : schedule;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host.replace(/^\[|\]$/g, ''));
}
