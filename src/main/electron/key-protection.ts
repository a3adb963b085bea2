/**
 * What actually protects a secret that Electron's asynchronous safeStorage encrypted. The
 * synchronous getSelectedStorageBackend() describes the old API's choice, not this one: the async
 * encryptor picks its own key provider on Linux (the Secret Service — GNOME Keyring, KWallet —
 * the XDG secret portal, or a fixed fallback key) and says which in the first bytes of every
 * ciphertext (Chromium's os_crypt_async key tags). So the stored key itself is read: on Linux
 * "v11" (Secret Service) and "v12" (the portal) are protected by the user's keyring; "v10" is
 * Chromium's fixed fallback key — obfuscation only. Anything else is not claimed as protected.
 * On macOS (Keychain) and Windows (DPAPI) every provider is tied to the OS account.
 */
import type { KeyProtection } from '../settings/secrets';

/** Linux key-provider tags whose key lives in the user's keyring. */
export const KEYRING_TAGS = ['v11', 'v12'] as const;

export function protectionOfCiphertext(platform: NodeJS.Platform, encrypted: Buffer): KeyProtection {
  if (platform === 'darwin' || platform === 'win32') return 'keychain';
  const tag = encrypted.subarray(0, 3).toString('latin1');
  return (KEYRING_TAGS as readonly string[]).includes(tag) ? 'keychain' : 'basic';
}
