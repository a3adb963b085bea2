CREATE TABLE `unseen_failure_count` (
	`id` integer PRIMARY KEY NOT NULL,
	`n` integer NOT NULL,
	CONSTRAINT "unseen_failure_count_one_row_check" CHECK("unseen_failure_count"."id" = 1)
);
--> statement-breakpoint
-- The failures nobody has seen as they are now; from here on the triggers keep the count, in the same transaction as each change.
INSERT INTO `unseen_failure_count` (`id`, `n`)
  SELECT 1, count(*) FROM `background_jobs` INDEXED BY `background_jobs_unseen_failures_idx`
   WHERE `status` = 'failed' AND `acknowledged_at` IS NULL;
--> statement-breakpoint
CREATE TRIGGER unseen_failure_count_on_insert AFTER INSERT ON background_jobs
  WHEN NEW.status = 'failed' AND NEW.acknowledged_at IS NULL
BEGIN
  UPDATE unseen_failure_count SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
-- Failing, being dismissed or retried, and anything else that changes either column (a repair, another version).
CREATE TRIGGER unseen_failure_count_on_update AFTER UPDATE OF status, acknowledged_at ON background_jobs
  WHEN (OLD.status = 'failed' AND OLD.acknowledged_at IS NULL) IS NOT (NEW.status = 'failed' AND NEW.acknowledged_at IS NULL)
BEGIN
  UPDATE unseen_failure_count SET n = n + (CASE WHEN NEW.status = 'failed' AND NEW.acknowledged_at IS NULL THEN 1 ELSE -1 END)
   WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER unseen_failure_count_on_delete AFTER DELETE ON background_jobs
  WHEN OLD.status = 'failed' AND OLD.acknowledged_at IS NULL
BEGIN
  UPDATE unseen_failure_count SET n = n - 1 WHERE id = 1;
END;
