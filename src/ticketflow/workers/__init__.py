"""The notification worker: bounded retry policy, task registration, app factory."""
