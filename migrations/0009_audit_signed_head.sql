CREATE TABLE `audit_head` (
	`id` integer PRIMARY KEY NOT NULL,
	`last_id` integer NOT NULL,
	`count` integer NOT NULL,
	`hash` text NOT NULL,
	`mac` text,
	`updated_at` integer NOT NULL,
	CONSTRAINT "audit_head_one_row" CHECK("audit_head"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE `audit_events` ADD `mac` text;--> statement-breakpoint
-- INSERT OR REPLACE deletes the row it replaces without firing the delete trigger (unless
-- recursive_triggers is on): an insert may never reuse an existing id.
CREATE TRIGGER audit_events_no_replace BEFORE INSERT ON audit_events
WHEN EXISTS (SELECT 1 FROM audit_events WHERE id = NEW.id)
BEGIN
  SELECT RAISE(ABORT, 'audit_events is append-only');
END;
--> statement-breakpoint
-- Unsigned until the app first opens the library and anchors the ledger with its key.
INSERT INTO audit_head (id, last_id, count, hash, mac, updated_at)
SELECT 1, COALESCE(MAX(id), 0), COUNT(*), COALESCE((SELECT hash FROM audit_events ORDER BY id DESC LIMIT 1), '0000000000000000000000000000000000000000000000000000000000000000'), NULL, 0
FROM audit_events;
