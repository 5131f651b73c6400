# ruff: noqa: E501  (catalogue text and rubric patterns read best unwrapped)
"""English catalogue (``--lang en`` / ``GRADER_LANG=en``)."""

MESSAGES: dict[str, str] = {
    # -- errors (exit 2 / 3) -------------------------------------------------------------
    "error.usage": "Usage error: {detail}",
    "error.no_course_root": (
        "No exercises/ folder in {start} or any folder above it. Run grader from the course "
        "root, or pass --root DIR."
    ),
    "error.unknown_exercise": "There is no exercise {given}. Known exercises: {known}. Run grader list to see them all.",
    "error.unknown_exercise_suggest": "There is no exercise {given}. Did you mean {suggestion}?",
    "error.submission_not_found": (
        "File to check not found: {path}. Create it first (the statement is in "
        "exercises/{exercise}/README.md), or pass --path FILE."
    ),
    "error.submission_unreadable": "Cannot read {path}: {reason}. Make sure it is a UTF-8 text file.",
    "error.submission_symlink": "{path} is a symbolic link; hand in the file itself (copy it there instead of linking to it).",
    "error.submission_linked_folder": "The folder {link} on the path to {path} is a symbolic link; hand in the file itself, in a real folder (or pass the real path).",
    "error.submission_not_regular": "{path} is not a regular file (a directory, FIFO, socket or device); hand in the file itself.",
    "error.unsupported_submission": "{path} cannot be used for this exercise: it needs a {expected} file.",
    "error.syntax": "Syntax error in {path}, line {line}: {detail}. Fix it, then check again.",
    "error.syntax_cell": "Syntax error in {path}, code cell {cell}, line {line}: {detail}. Fix it, then check again.",
    "error.invalid_notebook": "{path} is not a valid Jupyter notebook: {reason}.",
    "error.empty_notebook": "{path} has no {what} cells to check.",
    "error.internal": "Internal grader error: {detail}. This is not your fault; please report this message to the course staff.",
    "error.runner": "Could not run the code in the sandbox: {detail}. This is not your fault; please report this message to the course staff.",
    "error.submission": "The file to check cannot be graded as it is. Fix it (see the exercise README.md), then check again.",
    "error.solution_marker": "{path}, line {line}: {detail}. Fix the solution markers, then run grader build-starters again.",
    "check.input": "the exercise id and the file to check",
    "report.normalized_id": "{exercise} (from {given})",
    "report.unknown_exercise": "unknown exercise",
    "report.input_error": "cannot be checked as it is",
    "report.internal_error": "internal grader error",
    "error.no_solutions": "No solutions/ folder in {root}: nothing to build starters from. Run it in the instructors' course tree, or pass --root DIR.",
    "error.interrupted": "Interrupted.",
    # -- check titles ---------------------------------------------------------------------
    "check.started": "answer started",
    "check.runs_cleanly": "runs without error against the real ticketflow",
    "check.output": "output matches the required table",
    "check.calls": "calls the function under test",
    "check.mutant": "catches the wrong implementation: {arg}",
    "check.concept": "covers: {arg}",
    "check.length": "answer length",
    # -- code: not started / real run ------------------------------------------------------
    "code.not_started": "{file} is still the starter template: not started yet. Complete the probe as README.md asks, then check again.",
    "run.ok": "The probe ran to the end against the real implementation, exit code 0.",
    "run.timeout": "The probe was stopped after {seconds} s. Look for an endless loop or a wait on an outside service.",
    "run.limit": "The probe was stopped: it exceeded a resource limit ({limit}).",
    "run.signal": "The probe was killed by signal {signal}.",
    "run.uncaught": "The probe fails against the real implementation: {type}: {message} (line {line})",
    "run.exit_code": "The probe exited with code {code} (expected 0).",
    "hint.assertion_on_real": (
        "The real ticketflow is correct: a failing assertion means your expected value (or the "
        "way you call it) is wrong. Compare with the cases in README.md."
    ),
    "hint.not_implemented": "Replace the TODO part with your own code.",
    "hint.sandbox_module": "The grader's sandbox provides only the ticketflow modules this exercise needs: {modules}. Your probe imports {module}: import what you need from one of those.",
    "hint.import_error": "Check the module and names you import against README.md (e.g. ticketflow.workers.tasks).",
    "hint.crash": "Run python {file} locally to reproduce the error.",
    "hint.exit_code": "Do not call sys.exit() with a non-zero code; let a failing assertion signal a problem.",
    # -- code: output ----------------------------------------------------------------------
    "output.ok": "The output contains the {count} required lines, in order.",
    "output.missing": 'Required line {index} is missing from the output: "{expected}".',
    "hint.output": "Print one line per case: the exception type name, retries_so_far, retry, countdown_seconds, dead_letter, separated by spaces.",
    # -- code: observed calls --------------------------------------------------------------
    "calls.ok": "The required calls were observed.",
    "calls.unreadable": "The recorded calls could not be read (malformed records: did the probe write to the grader's channel?).",
    "calls.policy.none": "The probe never called BoundedRetryPolicy.decision (the grader watches the real method: a probe that replaces, patches or bypasses it tests nothing).",
    "calls.policy.config": (
        "The probe's policy has max_retries={max_retries}, base_delay_seconds={base_delay_seconds}; "
        "the exercise asks for max_retries=2, base_delay_seconds=5."
    ),
    "calls.policy.missing": "The probe does not check these cases (exception type, retries_so_far): {cases}.",
    "calls.apply.too_few": "The probe called apply_notification_once {count} time(s); it needs at least {needed}.",
    "calls.apply.distinct_events": (
        "The probe delivered {count} different events: deliver the same EventEnvelope (same event_id) twice."
    ),
    "calls.apply.results": "Two deliveries of the same event returned {results}; expected [True, False].",
    "calls.atomic.no_failure": (
        "No call to apply_notification_once raised: inject a failure between the receipt and the "
        "business task (e.g. an engine before_cursor_execute listener that raises on INSERT INTO business_tasks)."
    ),
    "calls.atomic.no_redelivery": "After the injected failure, no redelivery returned True.",
    "calls.atomic.no_duplicate": "After the successful redelivery, the probe did not deliver once more to see a duplicate return False.",
    # -- code: mutants ---------------------------------------------------------------------
    "mutant.killed": "The probe catches this wrong implementation ({mutant}).",
    "mutant.survived": "Your probe still passes (exit code 0) when {mutant}.",
    "mutant.skipped": "Not evaluated: the probe must pass against the real implementation first; only then does failing against a wrong one mean something.",
    "mutant.constant_delay": "the backoff does not grow: every countdown equals base_delay_seconds (5, 5, ...)",
    "mutant.constant_delay.hint": "Assert that the countdown for retries_so_far=1 is exactly 10, not just that it retries.",
    "mutant.exponent_off_by_one": "the exponent starts at 1: countdowns 10, 20 instead of 5, 10",
    "mutant.exponent_off_by_one.hint": "Assert that the countdown for retries_so_far=0 is exactly 5.",
    "mutant.off_by_one_bound": "the retry bound is off by one (> instead of >=): it still retries at retries_so_far=2",
    "mutant.off_by_one_bound.hint": "Assert that retries_so_far=2 gives retry False and dead_letter True.",
    "mutant.gives_up_early": "it gives up early: retries_so_far=1 is already dead-lettered",
    "mutant.gives_up_early.hint": "Assert that retries_so_far=1 still gives retry=True, countdown=10.",
    "mutant.retries_any_error": "it does not tell errors apart: a ValueError is retried too",
    "mutant.retries_any_error.hint": "Assert that the decision for ValueError is (False, None, True).",
    "mutant.never_dead_letters": "it never dead-letters: dead_letter stays False when retries are exhausted or the error is permanent",
    "mutant.never_dead_letters.hint": "Assert dead_letter is True both for exhausted retries and for ValueError.",
    "mutant.no_dedupe": "it does not dedupe: it ignores the receipt insert's answer, writes a business task every time and returns True",
    "mutant.no_dedupe.hint": "Assert the second call returns False and that there is exactly 1 business task.",
    "mutant.always_true": "it always returns True: a duplicate delivery is reported as applied",
    "mutant.always_true.hint": "Assert that the duplicate delivery returns False (use is False, do not rely on counts only).",
    "mutant.returns_none": "it returns None: the writes are right but it forgets to return True/False",
    "mutant.returns_none.hint": "Assert both return values with is True / is False (or == (True, False)).",
    "mutant.receipt_without_task": "it commits the receipt and never writes the business task",
    "mutant.receipt_without_task.hint": "Count the business tasks (BusinessTask) and assert there is exactly 1.",
    "mutant.task_twice": "it writes the business task twice on the first delivery",
    "mutant.task_twice.hint": "Assert exactly 1 business task (== 1, not >= 1).",
    "mutant.dedupe_without_receipt": "it dedupes by looking for a business task and never writes a receipt",
    "mutant.dedupe_without_receipt.hint": "Count the receipts (NotificationReceipt) and assert there is exactly 1.",
    "mutant.receipt_committed_first": "it commits the receipt on its own, then writes the business task in a second transaction",
    "mutant.receipt_committed_first.hint": "After the injected failure, assert 0 receipts and 0 business tasks.",
    "mutant.effect_committed_first": "it commits the business task on its own, then writes the receipt in a second transaction",
    "mutant.effect_committed_first.hint": (
        "After the successful redelivery deliver once more: assert it returns False and there is "
        "still exactly 1 receipt and 1 business task."
    ),
    "mutant.effect_error_swallowed": "it commits the receipt first and swallows a failing business-task write, returning True",
    "mutant.effect_error_swallowed.hint": (
        "Assert that the injected failure propagates out of apply_notification_once (try/except/else: raise AssertionError)."
    ),
    # -- code: twins, outcomes, isolation -------------------------------------------------
    "check.equivalents": "depends on behaviour, not on how the code is written",
    "twin.ok": "The probe also passes on {count} correct implementations written differently.",
    "twin.skipped": "Not evaluated: the probe must pass on the real implementation first.",
    "twin.failed": "The probe fails on a correct implementation written differently ({twin}): {outcome}. Its result depends on how the code is written, not on what it does.",
    "hint.twin": "Judge only by calling the function and checking what it returns and what it leaves in the database. Do not inspect bytecode, function objects, source code or the exact SQL statements sent, and do not compare with a copy loaded from disk.",
    "twin.loop_backoff": "doubles the countdown in a loop instead of computing 2**n, with one combined condition",
    "twin.shift_backoff": "computes the countdown with a bit shift (base << n) and builds RetryDecision positionally",
    "twin.savepoint_effect": "writes the business task inside a SAVEPOINT of the same transaction",
    "twin.orm_effect": "writes the business task as an ORM object (session.add + flush) in the same transaction",
    "mutant.not_credible": "Not counted: the probe also fails on a correct implementation written differently, so failing here proves nothing.",
    "mutant.survived_unnoticed": "Your probe still passes (exit code 0) on the wrong implementation: {mutant}. Yet it got a different answer: at call {call} ({question}) the real implementation returned {real}, this one returned {wrong}. Assert that value; if you already do, make sure the assertion can fail (not caught by try/except, not comparing an object whose __eq__ lies, no os._exit(0) or atexit hook).",
    "outcome.uncaught": "{type}: {message} (line {line})",
    "outcome.exit_code": "exit code {code}",
    "outcome.timeout": "stopped after {seconds} s",
    "outcome.limit": "a resource limit was exceeded ({limit})",
    "outcome.signal": "killed by signal {signal}",
    "report.weak_isolation": "Note: this check ran without the isolating sandbox (rlimits mode): a probe could read the solutions and the grader's files. Fine for checking your own work; not for official grading.",
    "error.isolation_unknown": "GRADER_ISOLATION={given} is not valid: use auto, namespaces or rlimits.",
    "error.isolation_unavailable": "GRADER_ISOLATION=namespaces asks for the isolating sandbox, which is not available here: {reason}.",
    "error.weak_isolation": "Official grading needs the isolating sandbox (namespaces mode); this check ran in {isolation} mode.",
    # -- prose -----------------------------------------------------------------------------
    "prose.not_started": "{file} is still the starter template: not started yet.",
    "prose.too_short": "The answer has only {chars} non-blank characters (at least {needed} needed): explain every case.",
    "prose.length_ok": "The answer is long enough ({chars} non-blank characters).",
    "concept.found": "This point was found.",
    "concept.missing": "This point seems to be missing: {concept}.",
    "concept.EX-11-02.late_ack_redelivery": "worker killed before the handler starts: no late ACK yet, the broker redelivers",
    "concept.EX-11-02.redelivery_is_not_retry": "a broker redelivery does not consume Celery's retry count",
    "concept.EX-11-02.receipt_makes_duplicate_a_no_op": (
        "killed after the side effect committed but before the ACK: on redelivery the event receipt turns the second run into a duplicate/no-op"
    ),
    "concept.EX-11-02.bounded_task_retry": "the handler raises a retryable error: the task calls retry(countdown=...), bounded by max_retries",
    "concept.EX-11-02.idempotency_on_every_path": "all three timings deliver the event again, so idempotency cannot live only in the retry branch",
    "concept.EX-12-02.receipt_first_loses_notification": "receipt committed first, effect after: a crash in between loses the notification",
    "concept.EX-12-02.redelivery_sees_receipt_and_skips": "on redelivery the receipt already exists, so the event is skipped as a duplicate",
    "concept.EX-12-02.effect_first_duplicates_notification": "effect first, receipt separately: a crash in between makes the redelivery notify again",
    "concept.EX-12-02.crash_between_the_two_commits": "the problem is the crash window between the two commits",
    "concept.EX-12-02.fix_is_one_transaction": "the fix: receipt and effect in one transaction (atomic)",
    "concept.EX-13-02.unique_constraint_decides": "the unique constraint on event_id decides who wins",
    "concept.EX-13-02.select_then_insert_races": "SELECT-then-INSERT races: both sides can see 'no receipt yet'",
    "concept.EX-13-02.first_insert_wins": "the transaction that inserts (and commits) the receipt first wins",
    "concept.EX-13-02.loser_changes_nothing": "the loser writes no business task and returns False (rolls back)",
    "concept.EX-13-02.postgresql_loser": (
        "PostgreSQL: the loser waits on the winner's row lock, then ON CONFLICT DO NOTHING returns no row (a plain INSERT gets IntegrityError and an aborted transaction)"
    ),
    "concept.EX-13-02.sqlite_loser": "SQLite: one writer at a time; the loser waits for the lock (or gets 'database is locked')",
    # -- exercises ---------------------------------------------------------------------------
    "exercise.EX-11-01.title": "Probe the bounded retry policy",
    "exercise.EX-11-02.title": "Three timings of the same event arriving again",
    "exercise.EX-12-01.title": "One event delivered twice takes effect once",
    "exercise.EX-12-02.title": "Why both non-atomic orders fail",
    "exercise.EX-13-01.title": "Atomicity of receipt and effect",
    "exercise.EX-13-02.title": "Two deliveries racing on two connections",
    # -- summaries, statuses, labels ----------------------------------------------------------
    "summary.passed": "All checks passed.",
    "summary.failed": "{failed} check(s) failed.",
    "summary.needs_review": "Submitted, awaiting instructor review (the score is provisional).",
    "summary.not_started": "Not started yet.",
    "status.passed": "passed",
    "status.failed": "failed",
    "status.error": "error",
    "status.needs_review": "needs review",
    "status.not_started": "not started",
    "status.unchecked": "changed, not checked yet",
    "kind.code": "code",
    "kind.prose": "prose",
    "label.hint": "Hint",
    "label.evidence": "Output of your program (shown verbatim)",
    "label.evidence_above": "Same output as shown above.",
    "label.score": "Score",
    "label.check": "Check",
    "label.result": "Result",
    "label.points": "Points",
    "label.details": "Details",
    "label.pass": "pass",
    "label.fail": "fail",
    "list.id": "Exercise",
    "list.kind": "Kind",
    "list.title": "Title",
    "list.points": "Points",
    "list.status": "Status",
    "list.footer": "Run grader check <exercise> for detailed feedback.",
}
