BEGIN TRANSACTION;
CREATE TABLE business_tasks (
	id INTEGER NOT NULL, 
	event_id VARCHAR(200) NOT NULL, 
	event_type VARCHAR(200) NOT NULL, 
	payload JSON NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id)
);
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
INSERT INTO "dead_letters" VALUES('d9502b60a84c4029887726f4cb43797d','9f322f14769823283c612b6bc10822cca2f2369b5cb8034f06377b63c066682c','evt-3001','retries_exhausted','{"event_id":"evt-3001","event_type":"ticket.assigned","payload":{"simulate":"smtp_down"},"occurred_at":"2026-12-02T08:55:12.157219+00:00","schema_version":1}',2,'SMTP server timed out','RetryableTaskError','2026-12-02 08:55:13.316769');
CREATE TABLE notification_receipts (
	id INTEGER NOT NULL, 
	event_id VARCHAR(200) NOT NULL, 
	event_type VARCHAR(200) NOT NULL, 
	received_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (event_id)
);
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
