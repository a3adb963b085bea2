/** The desktop-only hooks the core gets: native import and folder pickers, the file manager, safeStorage. */
import { dialog, safeStorage, shell, type BrowserWindow } from 'electron';
import type { PlatformHooks } from '../core/core';
import type { SecretCipher } from '../settings/secrets';
import { protectionOfCiphertext } from './key-protection';
import { IMPORT_CHOICE_BUTTONS, importChoiceFromButton, importDialogProperties, needsImportChoice } from './import-dialog';

async function chooseImportPaths(win: BrowserWindow | null): Promise<string[] | null> {
  let choice: 'files' | 'folders' | 'both' = 'both';
  if (needsImportChoice(process.platform)) {
    const opts = {
      type: 'question' as const,
      title: 'Import photos',
      message: 'What would you like to import?',
      detail: 'Choose photo files, or a folder: everything in it and its subfolders is imported.',
      buttons: [...IMPORT_CHOICE_BUTTONS],
      defaultId: 0,
      cancelId: 2,
      noLink: true,
    };
    const r = win ? await dialog.showMessageBox(win, opts) : await dialog.showMessageBox(opts);
    const picked = importChoiceFromButton(r.response);
    if (!picked) return null;
    choice = picked;
  }
  const opts = {
    title: choice === 'folders' ? 'Import a folder of photos' : 'Import photos',
    buttonLabel: 'Import',
    properties: importDialogProperties(process.platform, choice),
  };
  const r = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts);
  return r.canceled ? null : r.filePaths;
}

async function chooseFolder(win: BrowserWindow | null, title: string): Promise<string | null> {
  const opts = { title, buttonLabel: 'Choose', properties: ['openDirectory' as const, 'createDirectory' as const] };
  const r = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts);
  return r.canceled ? null : (r.filePaths[0] ?? null);
}

async function chooseFile(win: BrowserWindow | null, title: string): Promise<string | null> {
  const opts = { title, buttonLabel: 'Choose', properties: ['openFile' as const] };
  const r = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts);
  return r.canceled ? null : (r.filePaths[0] ?? null);
}

/**
 * safeStorage through its async API. What protects a key is read from the ciphertext (see
 * key-protection.ts): a probe for what a key saved now would get, the stored key's own bytes for
 * the key already saved. `shouldReEncrypt` is passed on, and the key store encrypts it again.
 */
async function createCipher(): Promise<SecretCipher | undefined> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return undefined;
  const probe = await safeStorage.encryptStringAsync('circa').catch(() => null);
  if (!probe) return undefined;
  return {
    protection: protectionOfCiphertext(process.platform, probe),
    protectionOf: (encrypted) => protectionOfCiphertext(process.platform, encrypted),
    encrypt: (plain) => safeStorage.encryptStringAsync(plain),
    decrypt: async (encrypted) => {
      const r = await safeStorage.decryptStringAsync(encrypted);
      return { plain: r.result, reEncrypt: r.shouldReEncrypt };
    },
  };
}

/** A native yes/no question, "Cancel" by default. */
async function confirm(win: BrowserWindow | null, message: string, yes: string): Promise<boolean> {
  const options = { type: 'warning' as const, message, buttons: [yes, 'Cancel'], defaultId: 1, cancelId: 1 };
  const r = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
  return r.response === 0;
}

export async function desktopPlatform(getWindow: () => BrowserWindow | null): Promise<PlatformHooks> {
  return {
    chooseImportPaths: () => chooseImportPaths(getWindow()),
    chooseFolder: (title) => chooseFolder(getWindow(), title),
    chooseFile: (title) => chooseFile(getWindow(), title),
    revealInFolder: (file) => shell.showItemInFolder(file),
    confirm: (message, yes) => confirm(getWindow(), message, yes),
    cipher: await createCipher(),
  };
}
