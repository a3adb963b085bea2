/**
 * Evidence travels between confirmed copies: an accepted finding of one copy is proposed to the
 * others as pending `duplicate` evidence naming the copy and the finding; when the finding is
 * rejected, reset, edited or removed, or the group is unconfirmed or a copy leaves it, what it
 * proposed is withdrawn (kept in the history); every step is in the audit ledger.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import type { EvidenceItem } from '../../src/shared/contract';
import { openTestCore } from '../support/core';
import { addPhoto } from '../support/duplicates';

let core: Core;
beforeEach(() => {
  core = openTestCore({ runJobs: false });
});
afterEach(async () => {
  await core.close();
});

type FromCopy = Extract<EvidenceItem, { source: 'duplicate' }>;
const fromCopies = (photoId: number, history = false): FromCopy[] =>
  core.evidenceService.list(photoId, history).items.filter((i): i is FromCopy => i.source === 'duplicate');
const ocrFinding = (photoId: number, year: number) =>
  core.db.immediate(() =>
    core.evidence.recordFromJob(
      photoId,
      'ocr',
      [
        {
          kind: 'estimate',
          earliest: year * 10000 + 101,
          latest: year * 10000 + 1231,
          confidence: 0.7,
          summary: `Caption reads ${year}`,
        },
      ],
      null,
    ),
  )[0];
const auditEvents = (event: string) =>
  core.db.sqlite
    .prepare('SELECT data FROM audit_events WHERE event = ? ORDER BY id')
    .pluck()
    .all(event)
    .map((d) => JSON.parse(d as string));

describe('evidence travels between confirmed copies', () => {
  it('proposes accepted findings to the other copies and withdraws them when the original changes', () => {
    const print = addPhoto(core, 'print.jpg');
    const copy = addPhoto(core, 'copy-negative.jpg');
    const notAfter = core.evidenceService.addManual(print, { type: 'not_after', year: 1945 }, 'studio closed in 1945').item;
    const caption = ocrFinding(print, 1942); // pending: does not travel yet

    core.duplicates.confirm([print, copy]);
    let proposed = fromCopies(copy);
    expect(proposed).toHaveLength(1);
    expect(proposed[0]).toMatchObject({
      kind: 'bound',
      earliest: null,
      latest: 19451231,
      reviewStatus: 'pending',
      summary: 'From the copy “print.jpg”: Not after 1945 — studio closed in 1945',
      details: { origin: { photoId: print, evidenceId: notAfter.id, source: 'manual', filename: 'print.jpg' } },
    });
    // Pending evidence makes the copy's estimate wait for review, like any other finding.
    expect(core.evidenceService.list(copy, false).estimate.status).toBe('needs_review');
    expect(fromCopies(print)).toEqual([]);

    // Accepting the caption on the print proposes it too; rejecting it withdraws it again.
    core.evidenceService.review(caption, 'accepted', undefined);
    expect(fromCopies(copy).map((i) => i.details?.origin)).toEqual([
      expect.objectContaining({ evidenceId: notAfter.id }),
      expect.objectContaining({ evidenceId: caption }),
    ]);
    core.evidenceService.review(caption, 'rejected', 'misread');
    expect(fromCopies(copy).map((i) => i.details?.origin.evidenceId)).toEqual([notAfter.id]);
    const withdrawn = fromCopies(copy, true).filter((i) => i.superseded);
    expect(withdrawn).toHaveLength(1);
    expect(auditEvents('duplicate_evidence_withdrawn').at(-1)).toMatchObject({ reason: 'the original finding was rejected' });

    // Accepted on the copy: it counts there; it never travels back to the print.
    const travelled = fromCopies(copy)[0];
    const accepted = core.evidenceService.review(travelled.id, 'accepted', undefined);
    expect(accepted.estimate).toMatchObject({ status: 'estimated', latest: 19451231 });
    expect(fromCopies(print)).toEqual([]);

    // The original's dates edited: the accepted proposal is withdrawn and the new dates proposed for review.
    core.evidenceService.updateManual(notAfter.id, { type: 'not_after', year: 1944 }, 'studio closed in 1944');
    proposed = fromCopies(copy);
    expect(proposed).toHaveLength(1);
    expect(proposed[0]).toMatchObject({ latest: 19441231, reviewStatus: 'pending' });
    expect(auditEvents('duplicate_evidence_withdrawn').at(-1)).toMatchObject({
      evidenceId: travelled.id,
      reason: expect.stringContaining('dates changed'),
    });

    // The original removed: withdrawn, and the copy's estimate no longer uses it.
    const after = core.evidenceService.removeManual(notAfter.id);
    expect(after.estimate.status).toBe('undated');
    expect(fromCopies(copy)).toEqual([]);
    expect(core.evidenceService.list(copy, false).estimate.status).toBe('undated');
    expect(core.ledger.verify().ok).toBe(true);
  });

  it('withdraws everything when the group is unconfirmed, and what a removed copy gave and got', () => {
    const [a, b, c] = [addPhoto(core, 'a.jpg'), addPhoto(core, 'b.jpg'), addPhoto(core, 'c.jpg')];
    core.evidenceService.addManual(a, { type: 'not_before', year: 1920 }, '');
    core.evidenceService.addManual(c, { type: 'circa', year: 1931, plusMinus: 2 }, 'hat style');
    const { groupId } = core.duplicates.confirm([a, b, c], b);
    expect(fromCopies(a)).toHaveLength(1); // from c
    expect(fromCopies(b)).toHaveLength(2); // from a and c
    expect(fromCopies(c)).toHaveLength(1); // from a
    expect(auditEvents('duplicates_confirmed')).toEqual([{ groupId, photoIds: [a, b, c], mergedGroups: [], preferred: b }]);

    // c is not the same photograph after all: what it gave and got is withdrawn, and the pair is ruled out.
    core.duplicates.setPreferred(groupId, c);
    core.duplicates.removeFromGroup(c);
    expect(core.duplicates.list('confirmed', 0, 10).groups[0]).toMatchObject({ groupId, preferredPhotoId: null });
    expect(fromCopies(a)).toEqual([]);
    expect(fromCopies(b).map((i) => i.details?.origin.photoId)).toEqual([a]);
    expect(fromCopies(c)).toEqual([]);
    // One decision: c is not the same as a and b.
    const different = core.duplicates.list('different', 0, 10);
    expect(different.total).toBe(1);
    expect(different.groups[0].pairs.map((p) => [p.a, p.b])).toEqual([
      [a, c],
      [b, c],
    ]);

    // Unconfirming withdraws the rest.
    expect(core.duplicates.unconfirm(groupId)).toEqual({ photoIds: [a, b] });
    for (const id of [a, b, c]) expect(fromCopies(id)).toEqual([]);
    expect(fromCopies(b, true).every((i) => i.superseded)).toBe(true);
    const reasons = auditEvents('duplicate_evidence_withdrawn').map((d) => d.reason);
    expect(reasons.at(-1)).toMatch(/no longer confirmed as one photograph/);
    expect(auditEvents('duplicates_unconfirmed')).toEqual([{ groupId, photoIds: [a, b] }]);
    expect(core.ledger.verify().ok).toBe(true);
  });

  it('merges groups when a confirmation joins them, and proposes across the merged group', () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => addPhoto(core, `${n}.jpg`));
    core.evidenceService.addManual(d, { type: 'between', from: 1935, to: 1940 }, '');
    const first = core.duplicates.confirm([a, b]).groupId;
    const second = core.duplicates.confirm([c, d]).groupId;
    expect(fromCopies(c)).toHaveLength(1);
    const merged = core.duplicates.confirm([b, c]);
    expect(merged).toEqual({ groupId: first, photoIds: [a, b, c, d] });
    expect(core.duplicates.list('confirmed', 0, 10).groups.map((g) => g.groupId)).toEqual([first]);
    for (const id of [a, b, c]) expect(fromCopies(id).map((i) => i.earliest)).toEqual([19350101]);
    expect(auditEvents('duplicates_confirmed').at(-1)).toMatchObject({ mergedGroups: [second] });
  });
});
