/**
 * The archivist's notes as evidence (issue 27): a date or a named event typed in a photo's notes
 * becomes a "note" finding the estimate uses, through the contract on a real library; it is read
 * again when the notes change (keeping a review while the words still say it), follows the
 * library's numeric date order and the archivist's own history entries, is rejectable like any
 * finding, and undoing the edit puts the earlier findings back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { noteEvidence } from '../../src/main/dating/note-evidence';
import { CATALOGUE_ENTRIES } from '../../src/shared/dating/history';
import type { CallInput, CallName, CallOutput, EvidenceItem } from '../../src/shared/contract';
import { villageFete } from '../support/history-entries';
import { callCore, insertBarePhoto, openTestCore } from '../support/core';

let core: Core;
afterEach(async () => {
  await core?.close();
});

const call = <N extends CallName>(name: N, input: CallInput<N>) => callCore(core, name, input);
const photo = () => insertBarePhoto(core);

async function notesFindings(
  photoId: number,
): Promise<{ items: EvidenceItem[]; estimate: CallOutput<'evidence.list'>['estimate'] }> {
  const { items, estimate } = await call('evidence.list', { photoId, includeSuperseded: false });
  return { items: items.filter((i) => i.source === 'note'), estimate };
}

describe('notes as evidence', () => {
  it('turns a French and a German date in the notes into findings that date the photo to the day', async () => {
    core = openTestCore({ runJobs: false });
    for (const [note, day, edtf] of [
      ['Mariage de Jeanne et Paul, le 4 août 1906, Lyon', 19060804, '1906-08-04'],
      ['Hochzeit von Anna und Karl, den 12. März 1908 in Wien', 19080312, '1908-03-12'],
    ] as const) {
      const p = photo();
      expect((await notesFindings(p)).estimate.status).toBe('undated');
      await call('photos.setNotes', { id: p, notes: note });
      const { items, estimate } = await notesFindings(p);
      expect(items).toHaveLength(1);
      const [item] = items;
      expect(item).toMatchObject({ kind: 'estimate', earliest: day, latest: day, reviewStatus: 'pending' });
      // As written; the finding itself, a soft estimate, is shown approximate ('~').
      expect(item.source === 'note' && item.details?.edtf).toBe(edtf);
      expect(item.edtf).toBe(`${edtf}~`);
      expect(item.summary).toMatch(/^Note reads “/);
      expect([estimate.status, estimate.earliest, estimate.latest]).toEqual(['needs_review', day, day]);
      expect(estimate.edtf).toMatch(new RegExp(`^${edtf}~?$`));
    }
  });

  it('reads a named event with its catalogue source, and the archivist’s own entries', async () => {
    core = openTestCore({ runJobs: false });
    await call('historyEntries.save', { entries: [villageFete] });
    const p = photo();
    await call('photos.setNotes', { id: p, notes: 'V-E Day street party, Ashby village fete behind' });
    const { items } = await notesFindings(p);
    const byEntry = new Map(items.map((i) => [i.source === 'note' ? i.details?.history?.entryId : null, i]));
    expect(byEntry.get('ve-day')).toMatchObject({ kind: 'estimate', earliest: 19450508, latest: 19450508 });
    const ve = byEntry.get('ve-day')!;
    expect(ve.source === 'note' && ve.details?.history).toMatchObject({
      origin: 'catalogue',
      source: { work: 'Wikipedia', title: 'Victory in Europe Day' },
    });
    expect(byEntry.get(villageFete.id)).toBeDefined();
  });

  it('reads the notes again when they change: what they no longer say goes, a review holds while they still say it', async () => {
    core = openTestCore({ runJobs: false });
    const p = photo();
    await call('photos.setNotes', { id: p, notes: 'Picnic, 1906 July 4' });
    const [first] = (await notesFindings(p)).items;
    await call('evidence.review', { id: first.id, status: 'rejected' });
    expect((await notesFindings(p)).estimate.status).toBe('undated');

    // Same date, other words: the rejection stands and is not proposed again.
    await call('photos.setNotes', { id: p, notes: 'Family picnic at the lake, 1906 July 4' });
    let { items } = await notesFindings(p);
    expect(items.map((i) => [i.id, i.reviewStatus])).toEqual([[first.id, 'rejected']]);

    // Another date: the rejected reading goes to the history and the new one dates the photo.
    await call('photos.setNotes', { id: p, notes: 'Family picnic at the lake, 1907 July 4' });
    ({ items } = await notesFindings(p));
    expect(items.map((i) => [i.earliest, i.reviewStatus])).toEqual([[19070704, 'pending']]);
    expect((await notesFindings(p)).estimate.earliest).toBe(19070704);
    const history = await call('evidence.list', { photoId: p, includeSuperseded: true });
    expect(history.items.find((i) => i.id === first.id)).toMatchObject({ superseded: true, reviewStatus: 'rejected' });

    // Notes with no date: nothing of the notes dates the photo.
    await call('photos.setNotes', { id: p, notes: 'Family picnic at the lake' });
    expect((await notesFindings(p)).items).toEqual([]);
    expect((await notesFindings(p)).estimate.status).toBe('undated');

    // Undo puts the notes and their finding back.
    const { action } = await call('history.last', { photoId: p });
    await call('history.undo', { actionId: action!.id, photoId: p });
    expect(core.photos.get(p)!.notes).toBe('Family picnic at the lake, 1907 July 4');
    expect((await notesFindings(p)).estimate.earliest).toBe(19070704);
    expect(core.ledger.verify().ok).toBe(true);
  });

  it('an edit that reads the same findings changes no evidence, so the estimate is not recomputed; it is still one audited, undoable action', async () => {
    core = openTestCore({ runJobs: false });
    const p = photo();
    const recomputed: number[] = [];
    core.evidence.onChange((id) => recomputed.push(id));
    await call('photos.setNotes', { id: p, notes: 'Picnic, 1906 July 4' });
    expect(recomputed).toEqual([p]);
    const before = await notesFindings(p);

    await call('photos.setNotes', { id: p, notes: 'Family picnic at the lake, 1906 July 4' });
    expect(recomputed).toEqual([p]);
    expect(await notesFindings(p)).toEqual(before);
    const { action } = await call('history.last', { photoId: p });
    expect(action).toMatchObject({ kind: 'notes', label: 'Edited the notes' });
    const audited = core.db.sqlite
      .prepare("SELECT count(*) FROM audit_events WHERE event = 'photo_notes_edited' AND photo_id = ?")
      .pluck()
      .get(p);
    expect(audited).toBe(2);
    await call('history.undo', { actionId: action!.id, photoId: p });
    expect(core.photos.get(p)!.notes).toBe('Picnic, 1906 July 4');

    // A new date is a change of evidence: the estimate follows it.
    recomputed.length = 0;
    await call('photos.setNotes', { id: p, notes: 'Picnic, 1907 July 4' });
    expect(recomputed).toEqual([p]);
    expect((await notesFindings(p)).estimate.earliest).toBe(19070704);
    expect(core.ledger.verify().ok).toBe(true);
  });

  it('reads numeric dates in the library’s order', async () => {
    core = openTestCore({ runJobs: false });
    await call('settings.update', { numericDateOrder: 'day-first' });
    const p = photo();
    await call('photos.setNotes', { id: p, notes: 'Slide mount stamped 7/4/1906' });
    const { items } = await notesFindings(p);
    expect(items.map((i) => [i.earliest, i.source === 'note' && i.details?.edtf])).toEqual([[19060407, '1906-04-07']]);
  });
});

describe('what notes say, read alone', () => {
  const read = (text: string) => noteEvidence(text, 'undecided', CATALOGUE_ENTRIES);

  it('makes a date of the object’s use and an open range into bounds', () => {
    expect(read('Postmarked 12 May 1910')).toMatchObject([{ kind: 'bound', earliest: null, latest: 19100512 }]);
    expect(read('after the war, Hamburg')).toMatchObject([{ kind: 'bound', earliest: 19450508, latest: null }]);
  });

  it('keeps the uncertainty of what was written in the EDTF', () => {
    const [item] = read('Picnic, July 4? 1906');
    expect(item).toMatchObject({ kind: 'estimate', earliest: 19060704, latest: 19060704 });
    expect(item.details).toMatchObject({ edtf: '1906-07-04?' });
  });

  it('finds nothing where the notes name no date or event', () => {
    for (const text of [
      '',
      '   ',
      'Group before the war memorial, Ashby',
      'Route 66, accession no. 1950/12',
      'Ring 020 7946 0018',
    ]) {
      expect(read(text), text).toEqual([]);
    }
  });
});
