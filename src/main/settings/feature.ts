/** The settings room registers here, once: reading and changing the settings, and the AI key. */
import type { Handlers } from '../ipc/dispatcher';
import type { SettingsStore } from './settings';
import type { ApiKeyStore } from './secrets';

export const settingsFeature = {
  calls: (core: { settings: SettingsStore; apiKeys: ApiKeyStore }) =>
    ({
      'settings.get': () => core.settings.get(),
      'settings.update': (patch) => core.settings.update(patch),
      'settings.apiKeyStatus': () => core.apiKeys.status(),
      'settings.setApiKey': async ({ apiKey }) => {
        await core.apiKeys.set(apiKey);
        return { hasApiKey: core.apiKeys.get() !== null };
      },
    }) satisfies Partial<Handlers>,
};
