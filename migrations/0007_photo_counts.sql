CREATE TABLE `photo_counts` (
	`key` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
DROP INDEX `photos_imported_idx`;--> statement-breakpoint
CREATE INDEX `photos_missing_idx` ON `photos` (`id`) WHERE "photos"."missing" = 1;--> statement-breakpoint
-- The counts as they are now; from here on the triggers keep them, in the same transaction as each change.
INSERT INTO photo_counts (key, n)
  SELECT 'all', count(*) FROM photos
  UNION ALL SELECT 'estimate:' || estimate_status, count(*) FROM photos GROUP BY estimate_status
  UNION ALL SELECT 'metadata:' || metadata_status, count(*) FROM photos GROUP BY metadata_status
  UNION ALL SELECT 'missing', count(*) FROM photos WHERE missing = 1;
--> statement-breakpoint
CREATE TRIGGER photo_counts_on_insert AFTER INSERT ON photos
BEGIN
  INSERT INTO photo_counts (key, n) VALUES ('all', 1), ('estimate:' || NEW.estimate_status, 1), ('metadata:' || NEW.metadata_status, 1)
    ON CONFLICT (key) DO UPDATE SET n = n + 1;
  UPDATE photo_counts SET n = n + 1 WHERE key = 'missing' AND NEW.missing = 1;
END;
--> statement-breakpoint
CREATE TRIGGER photo_counts_on_delete AFTER DELETE ON photos
BEGIN
  UPDATE photo_counts SET n = n - 1
   WHERE key IN ('all', 'estimate:' || OLD.estimate_status, 'metadata:' || OLD.metadata_status)
      OR (key = 'missing' AND OLD.missing = 1);
END;
--> statement-breakpoint
CREATE TRIGGER photo_counts_on_estimate AFTER UPDATE OF estimate_status ON photos WHEN OLD.estimate_status IS NOT NEW.estimate_status
BEGIN
  UPDATE photo_counts SET n = n - 1 WHERE key = 'estimate:' || OLD.estimate_status;
  INSERT INTO photo_counts (key, n) VALUES ('estimate:' || NEW.estimate_status, 1) ON CONFLICT (key) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER photo_counts_on_metadata AFTER UPDATE OF metadata_status ON photos WHEN OLD.metadata_status IS NOT NEW.metadata_status
BEGIN
  UPDATE photo_counts SET n = n - 1 WHERE key = 'metadata:' || OLD.metadata_status;
  INSERT INTO photo_counts (key, n) VALUES ('metadata:' || NEW.metadata_status, 1) ON CONFLICT (key) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER photo_counts_on_missing AFTER UPDATE OF missing ON photos WHEN OLD.missing IS NOT NEW.missing
BEGIN
  INSERT INTO photo_counts (key, n) VALUES ('missing', CASE WHEN NEW.missing = 1 THEN 1 ELSE -1 END)
    ON CONFLICT (key) DO UPDATE SET n = n + excluded.n;
END;
