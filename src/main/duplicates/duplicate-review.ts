/**
 * The archivist's decisions about duplicates, each one transaction with its audit entry and the
 * evidence that travels (or stops travelling) because of it:
 *  - confirm: these photos are one photograph (groups they are in merge into one);
 *  - notSame: ruled out for good — the scan never proposes the pairs again; one decision (one
 *    decided_at, see DuplicateStore.decisionTime), so the Duplicates screen lists it once;
 *  - proposeAgain: takes a "not the same" back;
 *  - unconfirm: the group is dissolved, its proposals withdrawn, its pairs back up for review;
 *  - removeFromGroup: one copy is not the same as the rest;
 *  - setPreferred: which copy is the preferred original.
 */
import { CallFailure } from '../../shared/result';
import type { DuplicateView } from '../../shared/duplicates/contract';
import type { AuditLedger } from '../audit/ledger';
import type { LibraryDb } from '../db/open';
import type { PhotoRepository } from '../catalogue/photo-repository';
import type { DuplicateGroups } from './duplicate-groups';
import type { DuplicateStore } from './duplicate-store';
import type { EvidencePropagation } from './evidence-propagation';

export class DuplicateReview {
  constructor(
    private readonly db: LibraryDb,
    private readonly store: DuplicateStore,
    private readonly groups: DuplicateGroups,
    private readonly propagation: EvidencePropagation,
    private readonly photos: PhotoRepository,
    private readonly ledger: AuditLedger,
    private readonly onPhotosChanged: (ids: number[]) => void,
  ) {}

  list(view: DuplicateView, offset: number, limit: number) {
    return this.groups.list(view, offset, limit);
  }

  confirm(photoIds: number[], preferredPhotoId?: number) {
    const ids = this.existing(photoIds);
    if (ids.length < 2) throw new CallFailure('invalid_input', 'Confirming needs two or more different photos');
    if (preferredPhotoId !== undefined && !ids.includes(preferredPhotoId))
      throw new CallFailure('invalid_input', 'The preferred original must be one of the photos confirmed');
    const result = this.db.immediate(() => {
      const now = Date.now();
      const groups = [...new Set(ids.map((id) => this.store.groupOf(id)).filter((g) => g !== undefined))].sort((a, b) => a - b);
      const groupId = groups[0] ?? this.store.createGroup(now);
      const merged = groups.slice(1);
      const all = new Set(ids);
      for (const g of groups) for (const m of this.store.members(g)) all.add(m);
      for (const id of all) this.store.join(id, groupId, now);
      for (const g of merged) this.store.dropGroup(g);
      // Saying they are the same takes back any "not the same" among them.
      const members = [...all].sort((a, b) => a - b);
      forEachPair(members, (a, b) => this.store.undoDifferent(a, b));
      const preferred = preferredPhotoId ?? this.store.group(groupId)?.preferred_photo_id ?? null;
      if (preferredPhotoId !== undefined) this.store.setPreferred(groupId, preferredPhotoId, now);
      this.ledger.append([
        { event: 'duplicates_confirmed', actor: 'user', data: { groupId, photoIds: members, mergedGroups: merged, preferred } },
      ]);
      this.propagation.sync(members, `group ${groupId} confirmed`);
      return { groupId, photoIds: members };
    });
    this.onPhotosChanged(result.photoIds);
    return result;
  }

  notSame(photoIds: number[], from: number[]) {
    const ids = this.existing(photoIds);
    const others = this.existing(from);
    const marked: [number, number][] = [];
    this.db.immediate(() => {
      const now = this.store.decisionTime(Date.now());
      for (const a of ids) {
        for (const b of others) {
          if (a === b || this.inOneGroup(a, b)) continue;
          if (this.store.markDifferent(a, b, now)) marked.push([Math.min(a, b), Math.max(a, b)]);
        }
      }
      if (marked.length) this.ledger.append([{ event: 'duplicates_marked_different', actor: 'user', data: { pairs: marked } }]);
    });
    this.onPhotosChanged([...new Set(marked.flat())]);
    return { marked: marked.length };
  }

  proposeAgain(photoIds: number[], from: number[]) {
    const restored: [number, number][] = [];
    this.db.immediate(() => {
      for (const a of new Set(photoIds)) {
        for (const b of new Set(from)) {
          if (a !== b && this.store.undoDifferent(a, b)) restored.push([Math.min(a, b), Math.max(a, b)]);
        }
      }
      if (restored.length) this.ledger.append([{ event: 'duplicates_proposed_again', actor: 'user', data: { pairs: restored } }]);
    });
    this.onPhotosChanged([...new Set(restored.flat())]);
    return { restored: restored.length };
  }

  unconfirm(groupId: number) {
    const photoIds = this.db.immediate(() => {
      const members = this.groupMembers(groupId);
      this.store.dropGroup(groupId);
      this.ledger.append([{ event: 'duplicates_unconfirmed', actor: 'user', data: { groupId, photoIds: members } }]);
      this.propagation.sync(members, `group ${groupId} unconfirmed`);
      return members;
    });
    this.onPhotosChanged(photoIds);
    return { photoIds };
  }

  removeFromGroup(photoId: number) {
    const groupId = this.store.groupOf(photoId);
    if (groupId === undefined) throw new CallFailure('conflict', `Photo ${photoId} is not in a confirmed group`);
    const affected = this.db.immediate(() => {
      const now = this.store.decisionTime(Date.now());
      const rest = this.groupMembers(groupId).filter((id) => id !== photoId);
      this.store.leave(photoId);
      if (this.store.group(groupId)?.preferred_photo_id === photoId) this.store.setPreferred(groupId, null, now);
      for (const other of rest) this.store.markDifferent(photoId, other, now);
      // A group of one is no group.
      if (rest.length < 2) this.store.dropGroup(groupId);
      this.ledger.append([
        {
          event: 'duplicates_member_removed',
          actor: 'user',
          photoId,
          data: { groupId, photoId, rest, dissolved: rest.length < 2 },
        },
      ]);
      this.propagation.sync([photoId, ...rest], `photo ${photoId} removed from group ${groupId}`);
      return [photoId, ...rest];
    });
    this.onPhotosChanged(affected);
    return { groupId };
  }

  setPreferred(groupId: number, photoId: number | null) {
    this.db.immediate(() => {
      const members = this.groupMembers(groupId);
      if (photoId !== null && !members.includes(photoId))
        throw new CallFailure('invalid_input', `Photo ${photoId} is not in group ${groupId}`);
      const before = this.store.group(groupId)?.preferred_photo_id ?? null;
      this.store.setPreferred(groupId, photoId, Date.now());
      this.ledger.append([{ event: 'duplicates_preferred_set', actor: 'user', data: { groupId, from: before, to: photoId } }]);
    });
    return { groupId, preferredPhotoId: photoId };
  }

  private groupMembers(groupId: number): number[] {
    if (!this.store.group(groupId)) throw new CallFailure('not_found', `There is no duplicate group ${groupId}`);
    return this.store.members(groupId);
  }

  private inOneGroup(a: number, b: number): boolean {
    const g = this.store.groupOf(a);
    return g !== undefined && g === this.store.groupOf(b);
  }

  /** The distinct ids that are photos in the library; a missing one is an error the archivist should see. */
  private existing(ids: number[]): number[] {
    const distinct = [...new Set(ids)];
    const missing = distinct.filter((id) => !this.photos.get(id));
    if (missing.length) throw new CallFailure('not_found', `There is no photo ${missing.join(', ')}`);
    return distinct;
  }
}

function forEachPair(ids: number[], fn: (a: number, b: number) => void): void {
  for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) fn(ids[i], ids[j]);
}
