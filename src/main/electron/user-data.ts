/**
 * The user-data folder: "Circa" under the OS's application-data folder (~/.config/Circa,
 * ~/Library/Application Support/Circa, %APPDATA%\Circa) in development and installed alike —
 * fixed now, before users exist, because it holds the default library and the single-instance
 * lock. CIRCA_USER_DATA_DIR replaces it (the e2e tests use a fresh folder per run so they never
 * touch a real install or its lock).
 */
import path from 'node:path';

export const USER_DATA_ENV = 'CIRCA_USER_DATA_DIR';
export const USER_DATA_FOLDER = 'Circa';

export function userDataDir(appDataDir: string, env: NodeJS.ProcessEnv): string {
  const override = env[USER_DATA_ENV];
  return override ? path.resolve(override) : path.join(appDataDir, USER_DATA_FOLDER);
}
