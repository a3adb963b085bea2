CREATE TABLE `duplicate_group_members` (
	`photo_id` integer PRIMARY KEY NOT NULL,
	`group_id` integer NOT NULL,
	`added_at` integer NOT NULL,
	FOREIGN KEY (`photo_id`) REFERENCES `photos`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `duplicate_groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `duplicate_group_members_group_idx` ON `duplicate_group_members` (`group_id`);--> statement-breakpoint
CREATE TABLE `duplicate_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`preferred_photo_id` integer,
	`confirmed_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`preferred_photo_id`) REFERENCES `photos`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `duplicate_pairs` (
	`photo_lo` integer NOT NULL,
	`photo_hi` integer NOT NULL,
	`distance` integer,
	`matched_by` text,
	`status` text NOT NULL,
	`found_at` integer,
	`decided_at` integer,
	PRIMARY KEY(`photo_lo`, `photo_hi`),
	FOREIGN KEY (`photo_lo`) REFERENCES `photos`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`photo_hi`) REFERENCES `photos`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "duplicate_pairs_order_check" CHECK("duplicate_pairs"."photo_lo" < "duplicate_pairs"."photo_hi")
);
--> statement-breakpoint
CREATE INDEX `duplicate_pairs_hi_idx` ON `duplicate_pairs` (`photo_hi`);--> statement-breakpoint
CREATE INDEX `duplicate_pairs_status_idx` ON `duplicate_pairs` (`status`);--> statement-breakpoint
CREATE TABLE `photo_hashes` (
	`photo_id` integer PRIMARY KEY NOT NULL,
	`method` integer NOT NULL,
	`hashes` blob,
	`scanned_distance` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`photo_id`) REFERENCES `photos`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `photo_hashes_scan_idx` ON `photo_hashes` (`scanned_distance`,`photo_id`);--> statement-breakpoint
CREATE INDEX `photo_hashes_older_idx` ON `photo_hashes` (`photo_id`) WHERE method < 2;--> statement-breakpoint
-- Photos from before duplicate hashes get a row by the old method (1: only photos.phash), so the
-- scan finds what to re-hash through photo_hashes_older_idx instead of walking the library.
INSERT INTO photo_hashes (photo_id, method, hashes, scanned_distance, updated_at) SELECT id, 1, NULL, NULL, 0 FROM photos;
