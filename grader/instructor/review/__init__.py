"""``grader review``: a local web page over the gradebook for instructors.

The class matrix, one submission, the review queue (one question across the class at a
time), answer groups decided with one decision, class insight (which wrong implementations
each probe let through) and score overrides. Starlette + uvicorn, Jinja2 with autoescaping,
Pygments for the students' files; token auth like JupyterLab's and a CSRF token on every
form. Decisions go into the gradebook (``Gradebook.decide``) bound to the grading and
decision version the reviewer read, so a stale or concurrent save is refused (409), and
``grader export`` and ``grader feedback`` use them and no re-grade loses them.

Modules: ``app`` (create_app, the matrix, submission, insight and decision routes),
``site`` (what every route shares: language, rendering, post/redirect/get, conflicts),
``queue_routes``, ``group_routes``, ``data`` (the class snapshot), ``matrix``, ``charts``,
``details``, ``decisions`` (checking a form), ``auth`` and ``middleware``.
"""
