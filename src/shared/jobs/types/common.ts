/** Pieces the job-type definitions share. */
import { z } from 'zod';

export const MINUTE = 60_000;

export const photoId = z.number().int().positive();

/** The payload of every per-photo job type. */
export const photoIdPayload = z.object({ photoId }).strict();

/** A visual-analysis job's permanent failure: the backend's settings are the cause to fix. */
export const AI_SETTINGS_REMEDY = {
  why: 'A retry asks the same backend the same question; change the visual-analysis settings first.',
  fix: { label: 'Open Settings', href: '#/settings' },
};

/** One active job per type and photo. */
export const photoSubject = (p: { photoId: number }): string => `photo:${p.photoId}`;
