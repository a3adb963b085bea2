/**
 * The AI backend's API key. In the desktop app it is encrypted with Electron's safeStorage
 * (injected as an async cipher) and stored in the library; CIRCA_AI_API_KEY, when set, takes
 * precedence (and is browser mode's only way in). It is never sent to the renderer and never
 * logged. How well the key is protected depends on the system, and Settings says which — read
 * from the stored ciphertext itself (src/main/electron/key-protection.ts), not from a guess:
 * `keychain` — macOS Keychain, Windows DPAPI, or a Linux keyring (Secret Service, the portal);
 * `basic` — Linux with no keyring (Chromium's fixed fallback key): stored, but only obfuscated,
 * readable by anything that can read the library. When safeStorage says a stored key should be
 * re-encrypted (a keyring became available, or its key rotated), it is, at the next start.
 */
import { CallFailure } from '../../shared/result';
import type { SettingsStore } from './settings';

export type KeyProtection = 'keychain' | 'basic';

export interface SecretCipher {
  /** What protects what this system encrypts now. */
  protection: KeyProtection;
  /** What protected this ciphertext (a key stored before a keyring was running keeps its weaker protection). */
  protectionOf?(encrypted: Buffer): KeyProtection;
  encrypt(plain: string): Promise<Buffer>;
  /** `reEncrypt`: the system has a rotated or stronger key now; the stored key is encrypted again with it. */
  decrypt(encrypted: Buffer): Promise<string | { plain: string; reEncrypt: boolean }>;
}

/** Where a key can be kept here: the cipher's protection, none in the desktop app, or browser mode. */
export type KeyStorage = KeyProtection | 'unavailable' | 'browser';

const KEY = 'ai.apiKey.encrypted';

export class ApiKeyStore {
  private plain: string | null = null;
  /** Settles once the stored key has been decrypted (or found unreadable). */
  readonly ready: Promise<void>;

  constructor(
    private readonly settings: SettingsStore,
    private readonly cipher: SecretCipher | undefined,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly desktop = false,
  ) {
    this.ready = this.unlock();
  }

  private async unlock(): Promise<void> {
    const stored = this.settings.getFlag<string | null>(KEY, null);
    if (!stored || !this.cipher) return;
    let out: Awaited<ReturnType<SecretCipher['decrypt']>>;
    try {
      out = await this.cipher.decrypt(Buffer.from(stored, 'base64'));
    } catch {
      // Encrypted on another machine or account: status says so, and the archivist sets it again.
      return;
    }
    const plain = typeof out === 'string' ? out : out.plain;
    this.plain = plain;
    if (typeof out === 'string' || !out.reEncrypt) return;
    try {
      const fresh = await this.cipher.encrypt(plain);
      // Only if nothing replaced the key meanwhile.
      if (this.settings.getFlag<string | null>(KEY, null) === stored) this.settings.setFlag(KEY, fresh.toString('base64'));
    } catch {
      // The old ciphertext still decrypts; the next start tries again.
    }
  }

  /** The key to use now (synchronous: job loads read it). Call after `ready` for a stored key. */
  get(): string | null {
    return this.env.CIRCA_AI_API_KEY || this.plain;
  }

  /** How the stored key is protected (by its own ciphertext), else how a key saved now would be. */
  get storage(): KeyStorage {
    if (!this.cipher) return this.desktop ? 'unavailable' : 'browser';
    const stored = this.settings.getFlag<string | null>(KEY, null);
    if (stored && this.cipher.protectionOf) return this.cipher.protectionOf(Buffer.from(stored, 'base64'));
    return this.cipher.protection;
  }

  async status(): Promise<{
    hasApiKey: boolean;
    source: 'environment' | 'encrypted' | null;
    canStore: boolean;
    storage: KeyStorage;
  }> {
    await this.ready;
    const source = this.env.CIRCA_AI_API_KEY
      ? 'environment'
      : this.settings.getFlag<string | null>(KEY, null)
        ? 'encrypted'
        : null;
    return { hasApiKey: this.get() !== null, source, canStore: !!this.cipher, storage: this.storage };
  }

  async set(plain: string | null): Promise<void> {
    await this.ready;
    if (plain === null) {
      this.settings.setFlag(KEY, null);
      this.plain = null;
      return;
    }
    if (!this.cipher)
      throw new CallFailure(
        'conflict',
        this.desktop
          ? 'This system offers Circa no secure storage for the key, so it cannot be saved'
          : 'Storing an API key needs the desktop app; in browser mode set CIRCA_AI_API_KEY',
      );
    const encrypted = await this.cipher.encrypt(plain);
    this.settings.setFlag(KEY, encrypted.toString('base64'));
    this.plain = plain;
  }
}
