/**
 * What Settings says protects the AI key, and `shouldReEncrypt`. Electron's async safeStorage
 * tags each ciphertext with the key provider that made it (Chromium's os_crypt_async: "v10" the
 * fixed fallback key, "v11" the Secret Service, "v12" the portal). The cipher here stands in for
 * safeStorage the same way (no keyring under plain Node); the settings are a real library
 * database. Before the fix Settings repeated getSelectedStorageBackend() — the synchronous API's
 * guess — and a key saved while no keyring ran read "encrypted with your keychain" for ever.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/db/open';
import { SettingsStore } from '../../src/main/settings/settings';
import { ApiKeyStore, type SecretCipher } from '../../src/main/settings/secrets';
import { protectionOfCiphertext } from '../../src/main/electron/key-protection';
import { appPaths } from '../../src/main/app-paths';
import { tempDir } from '../support/core';

const open = () => openDatabase({ file: path.join(tempDir(), 'circa.db'), migrationsFolder: appPaths().migrations });

/** A Linux safeStorage whose current provider writes `tag`; it reads any tag, and asks to re-encrypt older ones. */
function linuxSafeStorage(tag: 'v10' | 'v11' | 'v12', log: string[] = []): SecretCipher {
  const encrypt = async (plain: string) => Buffer.concat([Buffer.from(tag), Buffer.from(plain).map((b) => b ^ 0x5a)]);
  return {
    protection: protectionOfCiphertext('linux', Buffer.from(tag)), // what createCipher's probe reads
    protectionOf: (buf) => protectionOfCiphertext('linux', buf),
    encrypt: async (plain) => {
      log.push(`encrypt ${tag}`);
      return encrypt(plain);
    },
    decrypt: async (buf) => {
      const plain = Buffer.from(buf.subarray(3).map((b) => b ^ 0x5a)).toString();
      return { plain, reEncrypt: buf.subarray(0, 3).toString() !== tag };
    },
  };
}
describe('which key protection Settings reports', () => {
  it('reads it from the ciphertext: Secret Service and portal are a keyring, the fallback key is not', () => {
    expect(protectionOfCiphertext('linux', Buffer.from('v11…'))).toBe('keychain');
    expect(protectionOfCiphertext('linux', Buffer.from('v12…'))).toBe('keychain');
    expect(protectionOfCiphertext('linux', Buffer.from('v10…'))).toBe('basic');
    expect(protectionOfCiphertext('linux', Buffer.from('xyz'))).toBe('basic'); // never claimed unless known
    expect(protectionOfCiphertext('darwin', Buffer.from('v10…'))).toBe('keychain'); // macOS Keychain
    expect(protectionOfCiphertext('win32', Buffer.from('v10…'))).toBe('keychain'); // DPAPI
  });

  it('GNOME with no keyring running: a key saved then is reported as obfuscated, not keychain-protected', async () => {
    const db = open();
    const settings = new SettingsStore(db);
    await new ApiKeyStore(settings, linuxSafeStorage('v10'), {}, true).set('sk-secret');
    const store = new ApiKeyStore(settings, linuxSafeStorage('v10'), {}, true);
    expect(await store.status()).toMatchObject({ hasApiKey: true, storage: 'basic' });
    await db.close();
  });

  it('Sway with gnome-keyring (the Secret Service): the key is reported as keychain-protected', async () => {
    const db = open();
    const settings = new SettingsStore(db);
    await new ApiKeyStore(settings, linuxSafeStorage('v11'), {}, true).set('sk-secret');
    expect(await new ApiKeyStore(settings, linuxSafeStorage('v11'), {}, true).status()).toMatchObject({ storage: 'keychain' });
    await db.close();
  });

  it('honours shouldReEncrypt: a key saved without a keyring is encrypted again once one runs, and then says so', async () => {
    const db = open();
    const settings = new SettingsStore(db);
    await new ApiKeyStore(settings, linuxSafeStorage('v10'), {}, true).set('sk-secret');
    const log: string[] = [];
    const later = new ApiKeyStore(settings, linuxSafeStorage('v11', log), {}, true);
    await later.ready;
    expect(log).toEqual(['encrypt v11']);
    expect(later.get()).toBe('sk-secret');
    expect(Buffer.from(settings.getFlag<string>('ai.apiKey.encrypted', '')!, 'base64').subarray(0, 3).toString()).toBe('v11');
    expect(await later.status()).toMatchObject({ hasApiKey: true, storage: 'keychain' });
    // Nothing to do the next time.
    const log2: string[] = [];
    await new ApiKeyStore(settings, linuxSafeStorage('v11', log2), {}, true).ready;
    expect(log2).toEqual([]);
    await db.close();
  });
});
