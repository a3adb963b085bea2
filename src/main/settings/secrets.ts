/**
 * The AI backend's API key. In the desktop app it is encrypted with the OS keychain (Electron
 * safeStorage, injected as `encrypt`/`decrypt`) and stored in the library; in browser mode it comes
 * from CIRCA_AI_API_KEY. It is never sent to the renderer and never logged.
 */
import { CallFailure } from '../../shared/result';
import type { SettingsStore } from './settings';

export interface SecretCipher {
  encrypt(plain: string): Buffer;
  decrypt(encrypted: Buffer): string;
}

const KEY = 'ai.apiKey.encrypted';

export class ApiKeyStore {
  constructor(
    private readonly settings: SettingsStore,
    private readonly cipher: SecretCipher | undefined,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  get(): string | null {
    if (this.env.CIRCA_AI_API_KEY) return this.env.CIRCA_AI_API_KEY;
    const stored = this.settings.getFlag<string | null>(KEY, null);
    if (!stored || !this.cipher) return null;
    try {
      return this.cipher.decrypt(Buffer.from(stored, 'base64'));
    } catch {
      return null; // encrypted on another machine or account: ask for it again
    }
  }

  status(): { hasApiKey: boolean; source: 'environment' | 'encrypted' | null; canStore: boolean } {
    const source = this.env.CIRCA_AI_API_KEY
      ? 'environment'
      : this.settings.getFlag<string | null>(KEY, null)
        ? 'encrypted'
        : null;
    return { hasApiKey: this.get() !== null, source, canStore: !!this.cipher };
  }

  set(plain: string | null): void {
    if (plain === null) return this.settings.setFlag(KEY, null);
    if (!this.cipher)
      throw new CallFailure('conflict', 'Storing an API key needs the desktop app; in browser mode set CIRCA_AI_API_KEY');
    this.settings.setFlag(KEY, this.cipher.encrypt(plain).toString('base64'));
  }
}
