DROP INDEX `photos_estimate_idx`;--> statement-breakpoint
CREATE INDEX `photos_estimate_range_idx` ON `photos` (`estimate_status`,`estimate_earliest`,`estimate_latest`);