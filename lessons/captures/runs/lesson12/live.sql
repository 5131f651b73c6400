BEGIN TRANSACTION;
CREATE TABLE business_tasks (
	id INTEGER NOT NULL, 
	event_id VARCHAR(200) NOT NULL, 
	event_type VARCHAR(200) NOT NULL, 
	payload JSON NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "business_tasks" VALUES(1,'evt-2001','ticket.assigned','{"simulate": "hang_after_commit"}','2026-12-02 08:54:54.102705');
CREATE TABLE dead_letters (
	id VARCHAR(32) NOT NULL, 
	dedupe_key VARCHAR(64) NOT NULL, 
	event_id VARCHAR(200), 
	reason VARCHAR(40) NOT NULL, 
	body TEXT NOT NULL, 
	attempts INTEGER NOT NULL, 
	error TEXT NOT NULL, 
	error_type VARCHAR(200) NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (dedupe_key)
);
INSERT INTO "dead_letters" VALUES('f701c98d4b04468bb64afddaa8c0f684','93e85eddc31b20f1d0b8751015cb17f4703c7d37f27d933d68b9167a794bdf65','evt-2002','permanent_failure','{"event_id":"evt-2002","event_type":"ticket.assigned","payload":{"simulate":"stuck"},"occurred_at":"2026-12-02T08:54:53.806927+00:00","schema_version":1}',1,'hard time limit exceeded: TimeLimitExceeded(2)','TimeLimitExceeded','2026-12-02 08:54:57.915131');
CREATE TABLE notification_receipts (
	id INTEGER NOT NULL, 
	event_id VARCHAR(200) NOT NULL, 
	event_type VARCHAR(200) NOT NULL, 
	received_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (event_id)
);
INSERT INTO "notification_receipts" VALUES(1,'evt-2001','ticket.assigned','2026-12-02 08:54:54.089126');
CREATE TABLE outbox_messages (
	id INTEGER NOT NULL, 
	event_id VARCHAR(200) NOT NULL, 
	event_type VARCHAR(200) NOT NULL, 
	body TEXT NOT NULL, 
	created_at DATETIME NOT NULL, 
	sent_at DATETIME, 
	attempts INTEGER NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (event_id)
);
CREATE INDEX ix_business_tasks_event_id ON business_tasks (event_id);
CREATE INDEX ix_dead_letters_event_id ON dead_letters (event_id);
COMMIT;
