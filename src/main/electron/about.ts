/**
 * The one About dialog (from the macOS app menu, or Help elsewhere): the version the archivist
 * quotes in a report, what it runs on, and where the library and the logs live. No electron
 * import: main.ts fills in the values and shows it.
 */
export interface AboutFacts {
  version: string;
  electron: string;
  chrome: string;
  node: string;
  platform: string;
  arch: string;
  libraryDir: string | null;
  logsDir: string;
}

export function aboutDialog(f: AboutFacts): { title: string; message: string; detail: string; buttons: string[] } {
  return {
    title: 'About Circa',
    message: `Circa ${f.version}`,
    detail: [
      'A workbench for dating undated historical photographs.',
      '',
      `Electron ${f.electron}, Chromium ${f.chrome}, Node.js ${f.node} (${f.platform} ${f.arch})`,
      '',
      `Library: ${f.libraryDir ?? 'not open'}`,
      `Logs and crash reports: ${f.logsDir}`,
    ].join('\n'),
    buttons: ['OK', 'Copy Details'],
  };
}
