"""Exactly-once *effects* on top of at-least-once delivery."""
