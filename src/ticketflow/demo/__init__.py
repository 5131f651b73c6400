"""The instructor-facing demos: a real worker loses a delivery, and what happens next.

``python -m ticketflow.demo worker-loss`` starts a real ``celery worker`` subprocess on
RabbitMQ and PostgreSQL, kills it before the late ACK, and prints the delivery timeline.
The integration tests drive the very same scenarios (``scenario`` and ``time_limits``), so
what instructors show and what CI checks cannot drift apart.

Nothing here runs at import time; Celery and SQLAlchemy are imported where they are used.
"""
