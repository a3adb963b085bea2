DROP INDEX `audit_events_photo_idx`;--> statement-breakpoint
CREATE INDEX `audit_events_photo_idx` ON `audit_events` (`photo_id`) WHERE "audit_events"."photo_id" IS NOT NULL;--> statement-breakpoint
DROP INDEX `background_jobs_finished_idx`;--> statement-breakpoint
CREATE INDEX `background_jobs_finished_idx` ON `background_jobs` (`finished_at`) WHERE "background_jobs"."finished_at" IS NOT NULL;