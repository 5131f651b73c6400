"""``grader review``: a local web page over the gradebook for instructors.

The class matrix, one submission, the review queue for prose answers, class insight (which
wrong implementations each probe let through) and score overrides. Starlette + uvicorn,
Jinja2 with autoescaping, Pygments for the students' files; token auth like JupyterLab's
and a CSRF token on every form. Decisions go into the gradebook (``Gradebook.set_review``),
so ``grader export`` and ``grader feedback`` use them and no re-grade loses them.
"""
