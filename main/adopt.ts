import fs from 'node:fs';
import path from 'node:path';
import { KeyError, parseKey, type DatabaseKey } from '../server/db/key.js';
import { WrongKeyError } from '../server/db/open.js';
import type { DesktopShell } from './desktop.js';
import type { UnlockResult } from './ipc.js';
import { adoptKey } from './keystore.js';

/**
 * A database this app did not make (issue 11 §3): the headless server's, keyed by `<data dir>/db.key`, or
 * one restored from another computer. The key is asked once (db.key when it is there, else typed: a
 * passphrase or the raw key's 64 hex digits), checked by opening the database with it (locked ->
 * unlocking -> serving), and only then kept in the keychain like the app's own. A key that does not open
 * it is never kept, and the database is never touched.
 */
async function tryKey(shell: DesktopShell, key: DatabaseKey): Promise<UnlockResult> {
  if (!shell.life.is('locked')) return { ok: false, message: 'Agency Desk is closing.' };
  try {
    await shell.unlockWith(key, shell.options.preferredPort);
  } catch (error) {
    if (error instanceof WrongKeyError) return { ok: false, message: 'That key does not open the database.' };
    return { ok: false, message: (error as Error).message };
  }
  shell.protection = adoptKey(shell.keystore(), key);
  return { ok: true };
}

/** The unlock window's answer in adoption mode: any key text the headless server would accept. */
export function tryAdoptingKey(shell: DesktopShell, text: string): Promise<UnlockResult> {
  let key: DatabaseKey;
  try {
    key = parseKey(text, 'The key');
  } catch (error) {
    if (error instanceof KeyError) return Promise.resolve({ ok: false, message: error.message });
    throw error;
  }
  return tryKey(shell, key);
}

async function offerKeyFile(shell: DesktopShell, keyFile: string): Promise<'quit' | 'opened' | 'type'> {
  const { response } = await shell.electron.dialog.showMessageBox({
    type: 'question',
    title: 'Open a database made elsewhere',
    message: 'This data folder holds a database made by the Agency Desk server (agency-desk serve).',
    detail: `Its key is in ${keyFile}. Agency Desk checks that the key opens the database, then keeps it in this computer's keychain.`,
    buttons: ['Quit', 'Use db.key', 'Type the key…'],
    defaultId: 1,
    cancelId: 0,
    noLink: true,
  });
  if (response === 0) return 'quit';
  if (response === 2) return 'type';
  let result: UnlockResult;
  try {
    result = await shell.during(() => tryKey(shell, parseKey(fs.readFileSync(keyFile, 'utf8'), keyFile)));
  } catch (error) {
    result = { ok: false, message: (error as Error).message };
  }
  if (result.ok) return 'opened';
  shell.electron.dialog.showErrorBox('db.key does not open the database', `${result.message} Type its key instead.`);
  return 'type';
}

/** locked -> serving with an adopted key, or false when the user quits. */
export async function adoptDatabase(shell: DesktopShell): Promise<boolean> {
  const keyFile = path.join(shell.options.dataDir, 'db.key');
  if (fs.existsSync(keyFile)) {
    const outcome = await offerKeyFile(shell, keyFile);
    if (outcome === 'opened') return true;
    if (outcome === 'quit') {
      shell.electron.app.quit();
      return false;
    }
  }
  await shell.askPassphrase('adopt');
  return shell.life.server !== null;
}
