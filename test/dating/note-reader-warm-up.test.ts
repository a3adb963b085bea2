/**
 * The date readers are warmed once after open, off the archivist's path (note-reader-warm-up.ts):
 * through a real core, the warm-up runs by itself with the library's own reader (its own history
 * entries included) and changes nothing in the library: no row written, no audit entry, no undo
 * step. Its speed is not tested here (no wall-clock thresholds); the rebuild bench shows it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import type { Logger } from '../../src/main/logger';
import { callCore, insertBarePhoto, openTestCore, waitFor } from '../support/core';
import { villageFete } from '../support/history-entries';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

/** Every row of every table, and how many rows this connection has changed since it opened. */
function snapshot(c: Core): { changes: number; tables: Record<string, unknown[]> } {
  const names = c.db.sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  const tables = Object.fromEntries(names.map((n) => [n, c.db.sqlite.prepare(`SELECT * FROM "${n}"`).raw().all()]));
  return { changes: c.db.sqlite.prepare('SELECT total_changes()').pluck().get() as number, tables };
}

describe('warming the date readers after open', () => {
  it('runs by itself once main is quiet, reads findings, and writes nothing', async () => {
    const logged: string[] = [];
    const log: Logger = { info: (m) => logged.push(m), warn: (m) => logged.push(m), error: (m) => logged.push(m) };
    core = openTestCore({ runJobs: false, log });
    const photoId = insertBarePhoto(core);
    await callCore(core, 'historyEntries.save', { entries: [villageFete] });
    const warmed = () => logged.find((m) => m.startsWith('date readers warmed'));
    expect(warmed(), 'the warm-up ran during set-up: nothing before it could be compared').toBeUndefined();
    const before = snapshot(core);

    const line = await waitFor(warmed, 30_000, 'the date readers to be warmed');
    expect(line).toMatch(/^date readers warmed: [1-9]\d* findings in \d+ readings, \d+ ms$/);
    expect(logged.filter((m) => m.startsWith('warming the date readers failed'))).toEqual([]);
    const after = snapshot(core);
    expect(after.changes).toBe(before.changes);
    expect(after.tables).toEqual(before.tables);
    expect(before.tables.photos).toHaveLength(1);

    // The library reads notes as before, the archivist's own entry included.
    await callCore(core, 'photos.setNotes', { id: photoId, notes: 'Ashby Village Fete, 1923' });
    const { items } = await callCore(core, 'evidence.list', { photoId, includeSuperseded: false });
    expect(items.filter((i) => i.source === 'note').map((i) => i.summary)).toContainEqual(
      expect.stringContaining('Ashby Village Fete'),
    );
  });
});
