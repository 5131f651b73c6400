"""The lab harness: real workers, fault injection and the instructors' demos.

Not part of what students deploy. ``ticketflow`` never imports this package; it builds on
``ticketflow``'s public pieces from the outside:

* ``python -m ticketflow_lab tour|worker-loss|time-limits`` — the demos (``cli``);
* ``celery -A ticketflow_lab.worker_app worker`` — the production worker plus the attempt
  log and the ``TICKETFLOW_TEST_*`` fault injection (``worker_app``, ``fault_injection``);
* ``scenario`` and ``time_limits`` — the scenarios the integration tests drive too, so
  what instructors show and what CI checks cannot drift apart;
* lesson 14's live demos, one idea per module (``dead_letter_exchange``, ``two_workers``,
  ``observability``, ``lost_ack``, ``worker_lost``, ``canvas_atomicity``,
  ``results_and_keys``, ``pickle_payload``, ``catch_all_retry``, ``broker_restart``), run
  on ``celery -A ticketflow_lab.lesson14_app worker`` subprocesses (``lesson14_workers``).

Nothing here runs at import time; Celery and SQLAlchemy are imported where they are used.
"""
