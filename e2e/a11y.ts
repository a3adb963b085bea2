/**
 * The accessibility check every screen passes in e2e: axe-core (WCAG 2.x A/AA rules and best
 * practice), zero serious or critical findings. Findings are reported one per line, with the
 * elements and axe's own summary, so a failure says what to fix.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import type { Target } from './target';

export async function axeFindings(page: Page, target: Target): Promise<string[]> {
  // Electron's window cannot open the blank page axe's default mode uses; its legacy mode runs in place.
  const builder = new AxeBuilder({ page }).setLegacyMode(target === 'electron');
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) => `[${v.impact}] ${v.id} (${v.help}) at ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`,
      ),
    );
}

/** Fails with every serious or critical finding on what `page` shows now, named by `screen`. */
export async function expectAccessible(page: Page, target: Target, screen: string): Promise<void> {
  const findings = await axeFindings(page, target);
  expect(findings, `axe on ${screen}`).toEqual([]);
}
