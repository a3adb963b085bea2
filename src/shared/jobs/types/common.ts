/** Pieces the job-type definitions share. */
import { z } from 'zod';

export const MINUTE = 60_000;

export const photoId = z.number().int().positive();

/** The payload of every per-photo job type. */
export const photoIdPayload = z.object({ photoId }).strict();

/** One active job per type and photo. */
export const photoSubject = (p: { photoId: number }): string => `photo:${p.photoId}`;
