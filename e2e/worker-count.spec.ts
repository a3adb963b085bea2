/**
 * The worker count applies without a restart, and Settings says what the machine's memory allows
 * next to it (src/shared/worker-budget.ts).
 */
import os from 'node:os';
import { describeWorkerBudget, workerBudget } from '../src/shared/worker-budget';
import { test, expect } from './fixtures';

test('the worker count states its memory budget and applies live', async ({ app }) => {
  const { page } = app;
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  const count = page.getByRole('spinbutton', { name: 'Worker processes' });
  const note = page.getByTestId('worker-budget');
  const totalMb = Math.floor(os.totalmem() / (1024 * 1024));
  await expect(note).toContainText(describeWorkerBudget(workerBudget(Number(await count.inputValue()), totalMb)));

  // The note follows the count being edited, before it is saved.
  await count.fill('3');
  await expect(note).toContainText(describeWorkerBudget(workerBudget(3, totalMb)));
  await app.shot('settings-worker-budget');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  // Three workers running, without a restart (the footer's health line).
  await expect(page.getByText('Connected · 3/3 workers')).toBeVisible({ timeout: 60_000 });
});
