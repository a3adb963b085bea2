/**
 * Issue 32, item 10: while the server is down the tab says so in a banner (not only a footer dot),
 * takes no clicks, and when the connection comes back every screen re-reads what it shows —
 * here a note written to the library by another process while this tab was disconnected.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test, expect } from './fixtures';
import { importCorpusCopies } from './helpers';
import { expectAccessible } from './a11y';

test('disconnected: a banner, nothing to click, and everything re-read on reconnect', async ({ app }) => {
  test.skip(!app.restartServer, 'the desktop app has no server to lose: its window talks to main in the same app');
  test.setTimeout(120_000);
  const { page, target } = app;
  const dir = await importCorpusCopies(page, target, ['Canon_40D.jpg', 'orientation/portrait_1.jpg']);
  try {
    await page.getByTestId('photo-tile').filter({ hasText: 'Canon_40D.jpg' }).dblclick();
    const notes = page.getByRole('textbox', { name: 'Notes' });
    await expect(notes).toHaveValue('');
    const rerun = page.getByTestId('rerun-ocr').getByRole('button');
    await rerun.focus();
    const banner = page.getByTestId('connection-banner');
    await expect(banner).toHaveCount(0);

    const written = 'Written by the headless runner while this tab was disconnected';
    await app.restartServer!(async () => {
      await expect(banner).toBeVisible();
      await expect(banner).toHaveAttribute('data-state', 'offline');
      await expect(banner).toContainText('Not connected to Circa');
      await expect(page.getByTestId('health')).toHaveAttribute('data-state', 'down');
      // The screens take no clicks or keys: they are inert, and the focus is on the banner, not in them.
      expect(await page.locator('#content').evaluate((el) => (el as HTMLElement).inert)).toBe(true);
      await expect(banner).toBeFocused();
      await expectAccessible(page, target, 'the disconnected photo screen');
      await app.shot('disconnected');
      // Another process changes the library meanwhile.
      const db = new Database(path.join(app.libraryDir, 'circa.db'));
      try {
        db.prepare('UPDATE photos SET notes = ? WHERE filename = ?').run(written, 'Canon_40D.jpg');
      } finally {
        db.close();
      }
    });

    // Back: the banner goes, the screen is live again, the focus is where it was and the notes are re-read.
    await expect(banner).toHaveCount(0, { timeout: 30_000 });
    expect(await page.locator('#content').evaluate((el) => (el as HTMLElement).inert)).toBe(false);
    await expect(notes).toHaveValue(written);
    await expect(rerun).toBeFocused();
    await expect(page.getByTestId('health')).toHaveAttribute('data-state', 'ok', { timeout: 30_000 });
    await app.shot('reconnected');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
