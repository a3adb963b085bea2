/**
 * The stored AI API key: encrypted through the shell's async cipher, decrypted once at start,
 * and reported with how well this system protects it. The cipher stands in for Electron's
 * safeStorage (no OS keychain under plain Node); the settings are a real library database.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/db/open';
import { SettingsStore } from '../../src/main/settings/settings';
import { ApiKeyStore, type KeyProtection, type SecretCipher } from '../../src/main/settings/secrets';
import { appPaths } from '../../src/main/app-paths';
import { tempDir } from '../support/core';

const open = () => openDatabase({ file: path.join(tempDir(), 'circa.db'), migrationsFolder: appPaths().migrations });

function cipher(protection: KeyProtection, salt = 'k'): SecretCipher {
  return {
    protection,
    encrypt: async (plain) => Buffer.from(Buffer.from(`${salt}:${plain}`).map((b) => b ^ 0x5a)),
    decrypt: async (buf) => {
      const text = Buffer.from(buf.map((b) => b ^ 0x5a)).toString();
      if (!text.startsWith(`${salt}:`)) throw new Error('wrong key');
      return text.slice(salt.length + 1);
    },
  };
}

describe('ApiKeyStore', () => {
  it('stores the key encrypted, and a new store decrypts it asynchronously before use', async () => {
    const db = open();
    const settings = new SettingsStore(db);
    const first = new ApiKeyStore(settings, cipher('keychain'), {}, true);
    await first.set('sk-secret');
    expect(first.get()).toBe('sk-secret');
    expect(JSON.stringify(settings.getFlag('ai.apiKey.encrypted', null))).not.toContain('sk-secret');
    const next = new ApiKeyStore(settings, cipher('keychain'), {}, true);
    await next.ready;
    expect(next.get()).toBe('sk-secret');
    expect(await next.status()).toEqual({ hasApiKey: true, source: 'encrypted', canStore: true, storage: 'keychain' });
    await db.close();
  });

  it("says when the key is only obfuscated (Linux's basic_text backend), not protected by a keychain", async () => {
    const db = open();
    const store = new ApiKeyStore(new SettingsStore(db), cipher('basic'), {}, true);
    expect((await store.status()).storage).toBe('basic');
    await db.close();
  });

  it('in the desktop app without storage, refuses to save without pointing at a browser-mode variable', async () => {
    const db = open();
    const store = new ApiKeyStore(new SettingsStore(db), undefined, {}, true);
    expect((await store.status()).storage).toBe('unavailable');
    const err = await store.set('sk').catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).not.toContain('CIRCA_AI_API_KEY');
    expect((err as Error).message).not.toContain('browser');
    const browser = new ApiKeyStore(new SettingsStore(db), undefined, {}, false);
    expect((await browser.status()).storage).toBe('browser');
    await expect(browser.set('sk')).rejects.toThrow(/CIRCA_AI_API_KEY/);
    await db.close();
  });

  it('a key encrypted elsewhere reads as stored-but-unreadable; the environment variable wins', async () => {
    const db = open();
    const settings = new SettingsStore(db);
    await new ApiKeyStore(settings, cipher('keychain', 'other-machine'), {}, true).set('sk-a');
    const here = new ApiKeyStore(settings, cipher('keychain'), {}, true);
    expect(await here.status()).toMatchObject({ hasApiKey: false, source: 'encrypted' });
    const env = new ApiKeyStore(settings, cipher('keychain'), { CIRCA_AI_API_KEY: 'sk-env' }, true);
    expect(env.get()).toBe('sk-env');
    expect(await env.status()).toMatchObject({ hasApiKey: true, source: 'environment' });
    await here.set(null);
    expect(await here.status()).toMatchObject({ hasApiKey: false, source: null });
    await db.close();
  });
});
