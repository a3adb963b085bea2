CREATE TABLE `audit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`event` text NOT NULL,
	`actor` text NOT NULL,
	`job_id` integer,
	`photo_id` integer,
	`data` text NOT NULL,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_events_job_idx` ON `audit_events` (`job_id`);--> statement-breakpoint
CREATE INDEX `audit_events_photo_idx` ON `audit_events` (`photo_id`);--> statement-breakpoint
CREATE TABLE `background_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`payload` text NOT NULL,
	`subject` text,
	`idempotency_key` text,
	`priority` integer DEFAULT 0 NOT NULL,
	`attempt` integer DEFAULT 0 NOT NULL,
	`retry_count` integer DEFAULT 0 NOT NULL,
	`max_retries` integer NOT NULL,
	`run_after` integer NOT NULL,
	`claimed_by` text,
	`lease_expires_at` integer,
	`started_at` integer,
	`finished_at` integer,
	`result_summary` text,
	`error_message` text,
	`error_stack` text,
	`progress` real,
	`progress_message` text,
	`cancel_requested_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	CONSTRAINT "background_jobs_status_check" CHECK("background_jobs"."status" IN ('queued','running','success','failed','cancelled')),
	CONSTRAINT "background_jobs_finished_check" CHECK(("background_jobs"."finished_at" IS NOT NULL) = ("background_jobs"."status" IN ('success','failed','cancelled'))),
	CONSTRAINT "background_jobs_lease_check" CHECK(("background_jobs"."status" = 'running') = ("background_jobs"."claimed_by" IS NOT NULL AND "background_jobs"."lease_expires_at" IS NOT NULL)),
	CONSTRAINT "background_jobs_key_check" CHECK("background_jobs"."idempotency_key" IS NULL OR "background_jobs"."status" IN ('queued','running')),
	CONSTRAINT "background_jobs_attempt_check" CHECK("background_jobs"."attempt" >= 0 AND "background_jobs"."retry_count" >= 0 AND "background_jobs"."max_retries" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `background_jobs_idempotency_key_unique` ON `background_jobs` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `background_jobs_claim_idx` ON `background_jobs` (`status`,`priority`,`run_after`,`id`);--> statement-breakpoint
CREATE INDEX `background_jobs_type_status_idx` ON `background_jobs` (`type`,`status`);--> statement-breakpoint
CREATE INDEX `background_jobs_subject_idx` ON `background_jobs` (`subject`);--> statement-breakpoint
CREATE INDEX `background_jobs_finished_idx` ON `background_jobs` (`finished_at`);--> statement-breakpoint
CREATE TABLE `evidence` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`photo_id` integer NOT NULL,
	`source` text NOT NULL,
	`kind` text NOT NULL,
	`earliest` integer,
	`latest` integer,
	`precision` text,
	`confidence` real,
	`summary` text NOT NULL,
	`details` text,
	`job_id` integer,
	`attempt` integer,
	`review_status` text DEFAULT 'pending' NOT NULL,
	`review_note` text,
	`superseded_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`photo_id`) REFERENCES `photos`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "evidence_interval_check" CHECK("evidence"."earliest" IS NULL OR "evidence"."latest" IS NULL OR "evidence"."earliest" <= "evidence"."latest"),
	CONSTRAINT "evidence_has_interval_check" CHECK("evidence"."earliest" IS NOT NULL OR "evidence"."latest" IS NOT NULL)
);
--> statement-breakpoint
CREATE INDEX `evidence_photo_idx` ON `evidence` (`photo_id`,`superseded_at`);--> statement-breakpoint
CREATE TABLE `photos` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sha256` text NOT NULL,
	`path` text NOT NULL,
	`filename` text NOT NULL,
	`size` integer NOT NULL,
	`mtime_ms` integer,
	`format` text,
	`width` integer,
	`height` integer,
	`orientation` integer,
	`display_width` integer,
	`display_height` integer,
	`thumbnail` text,
	`phash` text,
	`exif` text,
	`camera` text,
	`exif_date` text,
	`is_scan` integer,
	`metadata_status` text DEFAULT 'pending' NOT NULL,
	`metadata_error` text,
	`missing` integer DEFAULT false NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`estimate_status` text DEFAULT 'undated' NOT NULL,
	`estimate_earliest` integer,
	`estimate_latest` integer,
	`estimate` text,
	`imported_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `photos_sha256_unique` ON `photos` (`sha256`);--> statement-breakpoint
CREATE INDEX `photos_imported_idx` ON `photos` (`imported_at`,`id`);--> statement-breakpoint
CREATE INDEX `photos_filename_idx` ON `photos` (`filename`,`id`);--> statement-breakpoint
CREATE INDEX `photos_estimate_idx` ON `photos` (`estimate_earliest`,`id`);--> statement-breakpoint
CREATE INDEX `photos_metadata_status_idx` ON `photos` (`metadata_status`);--> statement-breakpoint
CREATE INDEX `photos_estimate_status_idx` ON `photos` (`estimate_status`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
