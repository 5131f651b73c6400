"""ticketflow: reliable event delivery with Celery and SQLAlchemy.

The package the course (lessons 11-13) teaches:

* ``ticketflow.messaging``     event envelopes and the transactional outbox;
* ``ticketflow.workers``       the bounded retry policy and the late-ACK Celery task;
* ``ticketflow.db``            typed SQLAlchemy models and engine/session factories;
* ``ticketflow.notifications`` "receipt + effect" in one transaction, and the dead-letter sink.

Importing a module never creates an engine, a Celery app or a connection.
"""

__version__ = "0.1.0"
