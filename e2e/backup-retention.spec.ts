/**
 * The backup retention rule is shown in Settings before it acts, and follows the values being
 * edited (a "Back up now" used to delete the earlier backup with no rule in sight).
 */
import { test, expect } from './fixtures';

test('the Backups screen states the retention rule, as edited', async ({ app }, info) => {
  const { page } = app;
  await page.getByRole('link', { name: 'Backups' }).click();
  const rule = page.getByTestId('backup-retention-rule');
  await expect(rule).toContainText('always the two most recent backups');
  await expect(rule).toContainText('each of the last 12 months');
  await page.getByLabel('Days of daily backups').fill('3');
  await expect(rule).toContainText('each of the last 3 days');
  await page.screenshot({ path: info.outputPath('backup-retention.png'), fullPage: true });
});
