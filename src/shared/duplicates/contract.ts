/** The Duplicates screen's part of the contract (src/shared/contract.ts lists the calls). */
import { z } from 'zod';
import { estimateStatusSchema } from '../estimate-view';
import { MATCHED_BY } from './hash-set';

const id = z.number().int().positive();
const count = z.number().int().min(0);

/** unreviewed: found by the scan, not decided; confirmed: the same photograph; different: ruled out. */
export const duplicateViews = ['unreviewed', 'confirmed', 'different'] as const;
export type DuplicateView = (typeof duplicateViews)[number];

export const duplicateMemberSchema = z.object({
  photoId: id,
  filename: z.string(),
  path: z.string(),
  format: z.string().nullable(),
  /** Changes with the thumbnail (for the image URL); null: none yet. */
  thumbnailVersion: z.string().nullable(),
  displayWidth: z.number().int().nullable(),
  displayHeight: z.number().int().nullable(),
  size: count,
  missing: z.boolean(),
  estimateStatus: estimateStatusSchema,
  estimateLabel: z.string().nullable(),
  /** The confirmed group the photo belongs to, if any. */
  groupId: id.nullable(),
  /** Current findings by review status, and how many came from duplicates. */
  evidence: z.object({ accepted: count, pending: count, rejected: count, fromDuplicates: count }),
});
export type DuplicateMember = z.infer<typeof duplicateMemberSchema>;

export const duplicatePairSchema = z.object({
  a: id,
  b: id,
  /** Bits apart of 64 (null: never found by a scan). */
  distance: z.number().int().nullable(),
  matchedBy: z.enum(MATCHED_BY).nullable(),
  status: z.enum(['proposed', 'different']),
});

/**
 * A group lists at most this many of its photos: as many as one decision takes (`confirm` below).
 * Near matches can chain thousands of photos into one group (a box of scans of blank card backs);
 * sending them all made a 16 MB answer that froze the window for a second, for a group no one
 * could confirm as one photograph anyway.
 */
export const MAX_LISTED_MEMBERS = 100;
/** And at most this many of the matches among those photos, the closest first. */
export const MAX_LISTED_PAIRS = 200;

export const duplicateGroupSchema = z.object({
  /** Stable while the group is unchanged: `u<smallest photo id>`, `g<group id>`, `d<id>-<id>`. */
  key: z.string(),
  state: z.enum(duplicateViews),
  /** The confirmed group (unreviewed: the one its confirmed members belong to, if exactly one). */
  groupId: id.nullable(),
  preferredPhotoId: id.nullable(),
  /** The group's photos, or the first MAX_LISTED_MEMBERS of a larger one (see memberCount). */
  members: z.array(duplicateMemberSchema).max(MAX_LISTED_MEMBERS),
  /** How many photos the group has in all. */
  memberCount: count,
  /** The matches among the listed members; of more than MAX_LISTED_PAIRS, the closest (see pairCount). */
  pairs: z.array(duplicatePairSchema).max(MAX_LISTED_PAIRS),
  /** How many matches join the group's photos in all. */
  pairCount: count,
});
export type DuplicateGroup = z.infer<typeof duplicateGroupSchema>;

export const duplicateListInput = z
  .object({
    view: z.enum(duplicateViews).default('unreviewed'),
    offset: z.number().int().min(0).max(1_000_000).default(0),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .strict();

export const duplicateListSchema = z.object({
  groups: z.array(duplicateGroupSchema),
  total: count,
  counts: z.object({ unreviewed: count, confirmed: count, different: count }),
});

const photoIds = z.array(id).min(1).max(MAX_LISTED_MEMBERS);

export const duplicateDecisionInputs = {
  /** These photos are one photograph (groups they belong to merge); optionally which copy is the preferred original. */
  confirm: z.object({ photoIds: z.array(id).min(2).max(MAX_LISTED_MEMBERS), preferredPhotoId: id.optional() }).strict(),
  /** Each of `photoIds` is not the same photograph as any of `from` (pairs within one confirmed group are left alone). */
  notSame: z.object({ photoIds, from: photoIds }).strict(),
  /** Takes back "not the same" between each of `photoIds` and each of `from`. */
  proposeAgain: z.object({ photoIds, from: photoIds }).strict(),
  unconfirm: z.object({ groupId: id }).strict(),
  /** Takes one copy out of its confirmed group: it is not the same photograph as the rest. */
  removeFromGroup: z.object({ photoId: id }).strict(),
  setPreferred: z.object({ groupId: id, photoId: id.nullable() }).strict(),
};

export const duplicateDecisionOutputs = {
  confirm: z.object({ groupId: id, photoIds: z.array(id) }),
  notSame: z.object({ marked: count }),
  proposeAgain: z.object({ restored: count }),
  unconfirm: z.object({ photoIds: z.array(id) }),
  removeFromGroup: z.object({ groupId: id }),
  setPreferred: z.object({ groupId: id, preferredPhotoId: id.nullable() }),
};
