CREATE TABLE `job_counts` (
	`type` text NOT NULL,
	`status` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`type`, `status`)
);
--> statement-breakpoint
DROP INDEX `background_jobs_claim_idx`;--> statement-breakpoint
CREATE INDEX `background_jobs_queue_idx` ON `background_jobs` (`priority`,`run_after`,`id`) WHERE "background_jobs"."status" = 'queued';--> statement-breakpoint
CREATE INDEX `background_jobs_status_id_idx` ON `background_jobs` (`status`,`id`);--> statement-breakpoint
-- The counts as they are now; from here on the triggers keep them, in the same transaction as each change.
INSERT INTO `job_counts` (`type`, `status`, `n`) SELECT `type`, `status`, count(*) FROM `background_jobs` GROUP BY `type`, `status`;
--> statement-breakpoint
CREATE TRIGGER job_counts_on_insert AFTER INSERT ON background_jobs
BEGIN
  INSERT INTO job_counts (type, status, n) VALUES (NEW.type, NEW.status, 1)
    ON CONFLICT (type, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER job_counts_on_status AFTER UPDATE OF status ON background_jobs WHEN OLD.status IS NOT NEW.status
BEGIN
  UPDATE job_counts SET n = n - 1 WHERE type = OLD.type AND status = OLD.status;
  INSERT INTO job_counts (type, status, n) VALUES (NEW.type, NEW.status, 1)
    ON CONFLICT (type, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER job_counts_on_delete AFTER DELETE ON background_jobs
BEGIN
  UPDATE job_counts SET n = n - 1 WHERE type = OLD.type AND status = OLD.status;
END;
