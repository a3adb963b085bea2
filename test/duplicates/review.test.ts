/**
 * Reviewing duplicates through the contract: groups built from the scan's pairs (a confirmed group
 * comes along whole when a new copy turns up), "not the same" remembered and taken back, the
 * preferred original, the library's "unreviewed duplicates" filter, and typed errors.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { MAX_LISTED_MEMBERS, MAX_LISTED_PAIRS, type DuplicateGroup } from '../../src/shared/duplicates/contract';
import { DuplicateStore } from '../../src/main/duplicates/duplicate-store';
import { openTestCore } from '../support/core';
import { addPhoto } from '../support/duplicates';

let core: Core;
let store: DuplicateStore;
beforeEach(() => {
  core = openTestCore({ runJobs: false });
  store = new DuplicateStore(core.db.sqlite);
});
afterEach(async () => {
  await core.close();
});

/** A pair as the scan would have found it. */
const found = (a: number, b: number, distance = 3) =>
  core.db.immediate(() => store.found(a, b, distance, 'full', Number.MAX_SAFE_INTEGER, Date.now()));
const call = async (name: string, input: unknown) => {
  const r = await core.dispatch(name, input);
  if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`);
  return r.value as any;
};
const members = (g: DuplicateGroup) => g.members.map((m) => m.photoId);
const unreviewedPhotos = () =>
  core.photos.list({ sort: 'filename', filter: 'unreviewed_duplicates', limit: 50 }).items.map((p) => p.filename);

describe('reviewing duplicates', () => {
  it('groups the pairs, and a confirmed group comes along whole when a new copy turns up', async () => {
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((n) => addPhoto(core, `${n}.jpg`));
    // Photos without hashes are fine here: the pairs are put in as the scan would.
    for (const id of [a, b, c, d, e])
      core.db.sqlite.prepare(`INSERT INTO photo_hashes (photo_id, method, updated_at) VALUES (?, 2, 0)`).run(id);
    found(a, b);
    found(b, c, 5);
    found(d, e, 1);
    let list = await call('duplicates.list', {});
    expect(list.counts).toEqual({ unreviewed: 2, confirmed: 0, different: 0 });
    expect(list.groups.map(members)).toEqual([
      [a, b, c],
      [d, e],
    ]);
    expect(list.groups[0]).toMatchObject({ key: `u${a}`, state: 'unreviewed', groupId: null });
    expect(list.groups[0].members[0]).toMatchObject({
      filename: 'a.jpg',
      size: 1000,
      displayWidth: 640,
      estimateStatus: 'undated',
      evidence: { accepted: 0, pending: 0, rejected: 0, fromDuplicates: 0 },
    });
    expect(list.groups[0].pairs).toEqual([
      { a, b, distance: 3, matchedBy: 'full', status: 'proposed' },
      { a: b, b: c, distance: 5, matchedBy: 'full', status: 'proposed' },
    ]);
    expect(unreviewedPhotos()).toEqual(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg', 'e.jpg']);

    // Confirm a, b, c with b as the preferred original: the group leaves the unreviewed list.
    const { groupId } = await call('duplicates.confirm', { photoIds: [a, b, c], preferredPhotoId: b });
    list = await call('duplicates.list', { view: 'confirmed' });
    expect(list.groups).toHaveLength(1);
    expect(list.groups[0]).toMatchObject({ key: `g${groupId}`, state: 'confirmed', groupId, preferredPhotoId: b });
    expect(unreviewedPhotos()).toEqual(['d.jpg', 'e.jpg']);

    // A new copy of c: reviewed beside the whole confirmed group.
    const f = addPhoto(core, 'f.jpg');
    core.db.sqlite.prepare(`INSERT INTO photo_hashes (photo_id, method, updated_at) VALUES (?, 2, 0)`).run(f);
    found(c, f, 4);
    list = await call('duplicates.list', {});
    expect(list.groups.map(members)).toEqual([
      [a, b, c, f],
      [d, e],
    ]);
    expect(list.groups[0]).toMatchObject({ groupId, preferredPhotoId: b });
    expect(list.groups[0].members.map((m: { groupId: number | null }) => m.groupId)).toEqual([groupId, groupId, groupId, null]);
    // The preferred original can change; it must be in the group.
    await call('duplicates.setPreferred', { groupId, photoId: a });
    expect((await call('duplicates.list', { view: 'confirmed' })).groups[0].preferredPhotoId).toBe(a);
    expect(await core.dispatch('duplicates.setPreferred', { groupId, photoId: f })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });

  it('remembers "not the same" (never proposed again) and can take it back', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((n) => addPhoto(core, `${n}.jpg`));
    for (const id of [a, b, c])
      core.db.sqlite.prepare(`INSERT INTO photo_hashes (photo_id, method, updated_at) VALUES (?, 2, 0)`).run(id);
    found(a, b);
    found(a, c);
    expect(await call('duplicates.notSame', { photoIds: [a, b, c], from: [a, b, c] })).toEqual({ marked: 3 });
    let list = await call('duplicates.list', {});
    expect(list.counts).toEqual({ unreviewed: 0, confirmed: 0, different: 1 });
    expect(unreviewedPhotos()).toEqual([]);
    // Found again by a later scan: still ruled out.
    found(a, b, 2);
    expect(store.pair(a, b)).toMatchObject({ status: 'different', distance: 2 });
    expect((await call('duplicates.list', {})).counts.unreviewed).toBe(0);
    list = await call('duplicates.list', { view: 'different' });
    expect(list.groups).toHaveLength(1);
    expect(list.groups[0]).toMatchObject({ state: 'different' });
    expect(members(list.groups[0])).toEqual([a, b, c]);

    // Taken back: pairs the scan found are proposed again; b–c (never found) is simply forgotten.
    expect(await call('duplicates.proposeAgain', { photoIds: [a, b, c], from: [a, b, c] })).toEqual({ restored: 3 });
    expect((await call('duplicates.list', {})).groups.map(members)).toEqual([[a, b, c]]);
    expect(store.pair(b, c)).toBeUndefined();
    const events = core.db.sqlite
      .prepare(`SELECT event FROM audit_events WHERE event LIKE 'duplicates_%' ORDER BY id`)
      .pluck()
      .all();
    expect(events).toEqual(['duplicates_marked_different', 'duplicates_proposed_again']);
  });

  it('rules out an 8-copy group as one decision, listed once and taken back whole', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => addPhoto(core, `copy-${i}.jpg`));
    for (const id of ids)
      core.db.sqlite.prepare(`INSERT INTO photo_hashes (photo_id, method, updated_at) VALUES (?, 2, 0)`).run(id);
    for (const id of ids.slice(1)) found(ids[0], id);
    // A second, earlier decision about two other photos stays its own row.
    const [x, y] = ['x', 'y'].map((n) => addPhoto(core, `${n}.jpg`));
    expect(await call('duplicates.notSame', { photoIds: [x, y], from: [x, y] })).toEqual({ marked: 1 });

    expect(await call('duplicates.notSame', { photoIds: ids, from: ids })).toEqual({ marked: 28 });
    let list = await call('duplicates.list', { view: 'different' });
    expect(list.counts).toEqual({ unreviewed: 0, confirmed: 0, different: 2 });
    expect(list.total).toBe(2);
    // Newest decision first; the group is one row with its 28 pairs.
    expect(list.groups.map(members)).toEqual([ids, [x, y]]);
    expect(list.groups[0].pairs).toHaveLength(28);
    expect(list.groups[0].key).not.toBe(list.groups[1].key);
    // Paging counts decisions, not pairs.
    expect((await call('duplicates.list', { view: 'different', offset: 1, limit: 1 })).groups.map(members)).toEqual([[x, y]]);

    // Taken back from its one row: the group is offered again, whole; the other decision stays.
    await call('duplicates.proposeAgain', { photoIds: ids, from: ids });
    list = await call('duplicates.list', {});
    expect(list.groups.map(members)).toEqual([ids]);
    expect(list.counts.different).toBe(1);
  });

  it('lists a group chained by thousands of near matches in part: the closest matches first, with its full counts', async () => {
    // 1,500 photos, each 9 bits from the next (a box of look-alike scans), and among them five
    // photos 0-1 bit apart: one group of 1,500. Listed whole, it was megabytes, parsed at once.
    const ids = Array.from({ length: 1500 }, (_, i) => addPhoto(core, `scan-${i}.jpg`));
    const insertHash = core.db.sqlite.prepare(`INSERT INTO photo_hashes (photo_id, method, updated_at) VALUES (?, 2, 0)`);
    core.db.immediate(() => ids.forEach((id) => insertHash.run(id)));
    for (let i = 1; i < ids.length; i++) found(ids[i - 1], ids[i], 9);
    const close = ids.slice(700, 705);
    for (let i = 1; i < close.length; i++) found(close[0], close[i], i % 2);

    const list = await call('duplicates.list', {});
    expect(list.counts.unreviewed).toBe(1);
    const [group] = list.groups as DuplicateGroup[];
    expect(group).toMatchObject({ memberCount: 1500, pairCount: 1499 + 3 }); // the first close pair is also a link of the chain
    expect(group.members).toHaveLength(MAX_LISTED_MEMBERS);
    expect(members(group)).toEqual(expect.arrayContaining(close));
    expect(members(group)).toEqual([...members(group)].sort((x, y) => x - y));
    expect(group.pairs.length).toBeLessThanOrEqual(MAX_LISTED_PAIRS);
    const listed = new Set(members(group));
    expect(group.pairs.every((p) => listed.has(p.a) && listed.has(p.b))).toBe(true);
    expect(group.pairs.filter((p) => (p.distance ?? 64) <= 1)).toHaveLength(4);
    expect(JSON.stringify(list).length).toBeLessThan(100_000);

    // Ruling out what is listed brings the next matches forward; the listed part fits one decision.
    const shown = members(group);
    await call('duplicates.notSame', { photoIds: shown, from: shown });
    const next = ((await call('duplicates.list', {})).groups as DuplicateGroup[])[0];
    expect(next.members).toHaveLength(MAX_LISTED_MEMBERS);
    expect(next.pairs.some((p) => !(listed.has(p.a) && listed.has(p.b)))).toBe(true);
    expect(next.pairs.every((p) => p.status === 'proposed')).toBe(true);
  });

  it('answers bad requests with typed errors and changes nothing', async () => {
    const a = addPhoto(core, 'a.jpg');
    expect(await core.dispatch('duplicates.confirm', { photoIds: [a, 99999] })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'There is no photo 99999' },
    });
    expect(await core.dispatch('duplicates.confirm', { photoIds: [a, a] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await core.dispatch('duplicates.unconfirm', { groupId: 5 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await core.dispatch('duplicates.removeFromGroup', { photoId: a })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect(core.db.sqlite.prepare('SELECT count(*) FROM duplicate_groups').pluck().get()).toBe(0);
  });
});
