/** Starts Circa on a fresh library for each spec file, in whichever target this machine has. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, chromium, _electron, type Page, type Browser, type ElectronApplication } from '@playwright/test';
import { chosenTarget, chromiumPath, electronBinary, type Target } from './target';

export interface CircaApp {
  page: Page;
  target: Target;
  libraryDir: string;
  /** Saves a screenshot under e2e/screenshots/ to look at. */
  shot(name: string): Promise<void>;
  /**
   * Browser mode: stops the server (SIGTERM) and starts it again on the same library; the URLs it
   * printed. `whileStopped` runs in between (files changed while Circa is closed).
   */
  restartServer?(whileStopped?: () => Promise<void> | void): Promise<{ before: string; after: string }>;
  /** The desktop app (the Electron target only): its main process, for what only the shell has (the menu). */
  electron?: ElectronApplication;
}

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Everything the browser-mode servers of this test printed, attached to a failed test. */
let serverOutput = '';

/** How long a server may take to shut down after SIGTERM before the test says so (it stops the runner's jobs within ~10 s). */
const SHUTDOWN_MS = 20_000;

async function startBrowserMode(libraryDir: string): Promise<{ url: string; server: ChildProcess }> {
  // No --port: a fresh library gets a free port, and a restart comes back on the one it kept.
  const server = spawn(process.execPath, ['out/main/serve.js', '--library', libraryDir], {
    env: { ...process.env, CIRCA_DIAGNOSTIC_JOBS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`browser mode did not start:\n${output}`)), 30_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      serverOutput += d.toString();
      const m = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    server.stdout!.on('data', onData);
    server.stderr!.on('data', onData);
    server.on('exit', (code) => reject(new Error(`browser mode exited (${code}):\n${output}`)));
  });
  return { url, server };
}

export const test = base.extend<{ app: CircaApp }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  app: async ({}, use, testInfo) => {
    const target = chosenTarget();
    serverOutput = '';
    const libraryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-e2e-'));
    let page: Page;
    let cleanup: () => Promise<void>;
    let restartServer: CircaApp['restartServer'];
    let electron: ElectronApplication | undefined;
    if (target === 'electron') {
      // Its own user-data folder per run: never a real install's data or its single-instance lock.
      const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-e2e-userdata-'));
      const app: ElectronApplication = await _electron.launch({
        executablePath: electronBinary()!,
        args: ['.', `--library=${libraryDir}`],
        env: { ...process.env, CIRCA_DIAGNOSTIC_JOBS: '1', CIRCA_USER_DATA_DIR: userData } as Record<string, string>,
      });
      page = await app.firstWindow();
      electron = app;
      cleanup = async () => {
        await app.close();
        fs.rmSync(userData, { recursive: true, force: true });
      };
    } else {
      let { url, server } = await startBrowserMode(libraryDir);
      const browser: Browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS });
      // A context of our own (not browser.newPage's implicit one): the axe check opens a page beside it.
      const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
      page = await context.newPage();
      await page.goto(url);
      const stop = async () => {
        if (server.exitCode !== null || server.signalCode !== null) return;
        const gone = new Promise((r) => server.once('exit', r));
        server.kill('SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), SHUTDOWN_MS)));
        const how = await Promise.race([gone, late]);
        clearTimeout(timer);
        if (how !== 'late') return;
        // Say so, rather than let the test's own timeout hide which step hung.
        server.kill('SIGKILL');
        await gone;
        throw new Error(`browser mode did not exit within ${SHUTDOWN_MS / 1000} s of SIGTERM (see the attached server output)`);
      };
      restartServer = async (whileStopped) => {
        const before = url;
        await stop();
        await whileStopped?.();
        ({ url, server } = await startBrowserMode(libraryDir));
        return { before, after: url };
      };
      cleanup = async () => {
        await browser.close();
        await stop();
      };
    }
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const shotsDir = path.resolve('e2e', 'screenshots');
    fs.mkdirSync(shotsDir, { recursive: true });
    await use({
      page,
      target,
      libraryDir,
      shot: async (name) => {
        await page.screenshot({ path: path.join(shotsDir, `${name}.png`) });
      },
      restartServer,
      electron,
    });
    try {
      await cleanup();
    } finally {
      if (serverOutput && testInfo.status !== testInfo.expectedStatus)
        await testInfo.attach('browser-mode server output', { body: serverOutput, contentType: 'text/plain' });
    }
    if (errors.length) testInfo.annotations.push({ type: 'page errors', description: errors.join('\n') });
    if (errors.length) throw new Error(`the page threw: ${errors.join('; ')}`);
  },
});

export { expect } from '@playwright/test';
