CREATE TABLE `user_action_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`action_id` integer NOT NULL,
	`photo_id` integer NOT NULL,
	`evidence_id` integer,
	`before` text,
	`after` text NOT NULL,
	FOREIGN KEY (`action_id`) REFERENCES `user_actions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`photo_id`) REFERENCES `photos`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_action_changes_photo_idx` ON `user_action_changes` (`photo_id`,`action_id`);--> statement-breakpoint
CREATE INDEX `user_action_changes_action_idx` ON `user_action_changes` (`action_id`);--> statement-breakpoint
CREATE TABLE `user_actions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`kind` text NOT NULL,
	`label` text NOT NULL,
	`revert_note` text NOT NULL,
	`undone_at` integer
);
--> statement-breakpoint
CREATE INDEX `user_actions_open_idx` ON `user_actions` (`undone_at`);--> statement-breakpoint
DROP INDEX `photos_estimate_sort_idx`;--> statement-breakpoint
ALTER TABLE `photos` ADD `scan_policy` text;--> statement-breakpoint
ALTER TABLE `photos` ADD `scan_override` text;--> statement-breakpoint
ALTER TABLE `photos` ADD `scanner_reason` text;--> statement-breakpoint
ALTER TABLE `photos` ADD `scan_reason` text;--> statement-breakpoint
CREATE INDEX `photos_date_order_idx` ON `photos` ((((CASE WHEN "estimate_earliest" IS NULL THEN "estimate_latest" ELSE "estimate_earliest" END) * 2 + ("estimate_earliest" IS NULL OR "estimate_latest" IS NULL)) IS NULL),(((CASE WHEN "estimate_earliest" IS NULL THEN "estimate_latest" ELSE "estimate_earliest" END) * 2 + ("estimate_earliest" IS NULL OR "estimate_latest" IS NULL))),`id`);