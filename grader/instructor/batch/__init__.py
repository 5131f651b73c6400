"""Grading a whole class: discovery, the plan, local processes or Celery workers."""
