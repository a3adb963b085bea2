ALTER TABLE `background_jobs` ADD `error_kind` text;--> statement-breakpoint
ALTER TABLE `background_jobs` ADD `acknowledged_at` integer;--> statement-breakpoint
CREATE INDEX `background_jobs_unseen_failures_idx` ON `background_jobs` (`id`) WHERE "background_jobs"."status" = 'failed' AND "background_jobs"."acknowledged_at" IS NULL;--> statement-breakpoint
-- Failures recorded before error_kind existed: the audit ledger says which were permanent.
UPDATE `background_jobs` SET `error_kind` = CASE WHEN EXISTS (
    SELECT 1 FROM `audit_events` a WHERE a.`job_id` = `background_jobs`.`id` AND a.`event` = 'failed' AND json_extract(a.`data`, '$.permanent') = 1
  ) THEN 'permanent' ELSE 'retryable' END
  WHERE `status` = 'failed';
