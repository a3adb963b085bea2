import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';

test('opens, shows a live health indicator and navigates every screen', async ({ app }) => {
  const { page } = app;
  const health = page.getByTestId('health');
  await expect(health).toHaveAttribute('data-state', 'ok');
  await expect(health).toContainText('Connected');
  await expect(health).toContainText(app.libraryDir);

  await expect(page.getByRole('heading', { name: 'Library' })).toBeVisible();
  await app.shot('library');

  await page.getByRole('link', { name: /^Jobs/ }).click();
  await expect(page.getByRole('heading', { name: 'Jobs' })).toBeVisible();
  await expect(page.getByTestId('tile-queued')).toContainText('0');
  await app.shot('jobs-empty');

  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await page.getByLabel('Keep finished jobs for (days)').fill('45');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();
  await app.shot('settings');

  // Keyboard: the navigation is reachable and usable without a mouse.
  await page.getByRole('link', { name: 'Library' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Library' })).toBeVisible();

  // The settings change was persisted by main, not just kept in the page.
  await page.reload();
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByLabel('Keep finished jobs for (days)')).toHaveValue('45');
});

test('browser mode: after a restart of the server, the open tab reconnects at the same address', async ({ app }) => {
  test.skip(!app.restartServer, 'the desktop app has no server to restart');
  const { page } = app;
  const health = page.getByTestId('health');
  await expect(health).toHaveAttribute('data-state', 'ok');
  const { before, after } = await app.restartServer!();
  // Same port and token: kept in the library's browser.json, readable by its owner only.
  expect(after).toBe(before);
  const stat = fs.statSync(path.join(app.libraryDir, 'browser.json'));
  expect(stat.mode & 0o777).toBe(0o600);
  // The page was not reloaded: its socket came back by itself.
  await expect(health).toContainText('Connected · 1/1 workers', { timeout: 30_000 });
  await expect(health).toHaveAttribute('data-state', 'ok');
  await page.getByRole('link', { name: /^Jobs/ }).click();
  await expect(page.getByTestId('tile-queued')).toContainText('0');
  await app.shot('reconnected-after-restart');
});

test("desktop: Circa's own menu; File → Export… opens the library's export dialog from another screen", async ({ app }) => {
  test.skip(!app.electron, 'the application menu exists only in the desktop app; this run drives browser mode');
  const { page } = app;
  const menu = await app.electron!.evaluate(({ Menu }) => {
    const walk = (items: Electron.MenuItem[]): string[] =>
      items.flatMap((i) => [i.id || i.role || i.label, ...(i.submenu ? walk(i.submenu.items) : [])]);
    return walk(Menu.getApplicationMenu()?.items ?? []);
  });
  for (const id of ['import', 'export', 'backup', 'about', 'open-logs', 'show-library']) expect(menu).toContain(id);
  await page.getByRole('link', { name: /^Jobs/ }).click();
  await expect(page.getByRole('heading', { name: 'Jobs' })).toBeVisible();
  await app.electron!.evaluate(({ Menu }) => Menu.getApplicationMenu()?.getMenuItemById('export')?.click());
  await expect(page.getByRole('heading', { name: 'Library' })).toBeVisible();
  await expect(page.getByTestId('export-dialog')).toBeVisible();
  await app.shot('export-from-menu');
});
