/**
 * Crash reports: Electron's crashReporter writes a minidump when any Circa process crashes. They
 * stay on this machine, in a folder under the logs folder that Help → Open the Logs Folder shows,
 * so the archivist can look at them and send them if they choose. Nothing is ever uploaded.
 */
import path from 'node:path';

export const CRASH_REPORTS_FOLDER = 'crash-reports';

export function crashReportsDir(logsDir: string): string {
  return path.join(logsDir, CRASH_REPORTS_FOLDER);
}

export function crashReporterOptions(version: string) {
  return {
    productName: 'Circa',
    uploadToServer: false,
    ignoreSystemCrashHandler: false,
    extra: { version },
  } as const;
}
