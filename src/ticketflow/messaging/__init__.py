"""Event envelopes and the transactional outbox."""
