-- Full-text search over filenames, notes and OCR text (SQLite FTS5, kept in step by triggers).
CREATE VIRTUAL TABLE photos_fts USING fts5(filename, notes, ocr_text, content='photos', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO photos_fts(rowid, filename, notes, ocr_text) SELECT id, filename, notes, ocr_text FROM photos;
--> statement-breakpoint
CREATE TRIGGER photos_fts_insert AFTER INSERT ON photos BEGIN
  INSERT INTO photos_fts(rowid, filename, notes, ocr_text) VALUES (new.id, new.filename, new.notes, new.ocr_text);
END;
--> statement-breakpoint
CREATE TRIGGER photos_fts_delete AFTER DELETE ON photos BEGIN
  INSERT INTO photos_fts(photos_fts, rowid, filename, notes, ocr_text) VALUES ('delete', old.id, old.filename, old.notes, old.ocr_text);
END;
--> statement-breakpoint
CREATE TRIGGER photos_fts_update AFTER UPDATE OF filename, notes, ocr_text ON photos BEGIN
  INSERT INTO photos_fts(photos_fts, rowid, filename, notes, ocr_text) VALUES ('delete', old.id, old.filename, old.notes, old.ocr_text);
  INSERT INTO photos_fts(rowid, filename, notes, ocr_text) VALUES (new.id, new.filename, new.notes, new.ocr_text);
END;
