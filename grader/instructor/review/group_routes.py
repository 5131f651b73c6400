"""Answer groups on the page: the list (``/groups``), one group with its members side by
side, each showing first what it adds to the first member (highlighted), then its text with
every difference marked (``/group/KEY``), and its one decision (``POST /decide-group/KEY``)
for the members ticked. Before the group is decided every member but those decided on
their own is ticked; after, exactly the members the decision covered are: a member the
instructor left out stays out, and the page lists who was decided and who was not. A
member can still be overridden on its own page."""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any
from urllib.parse import urlencode

from markupsafe import Markup, escape
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from grader.instructor.gradebook import ResultView
from grader.instructor.gradebook.decisions import ConflictingDecision, StaleDecision
from grader.instructor.gradebook.groups import AnswerGroup, additions
from grader.instructor.review.decisions import Rejected, decide_group
from grader.instructor.review.queue_routes import QueueRoutes
from grader.judge.sanitize import clean

#: Members shown side by side on a group's page (the rest are listed by name).
SHOWN = 12


def marked(text: str, reference: str) -> Markup:
    """``text`` escaped, with what differs from ``reference`` (character by character, the
    measure groups are formed by) in ``<mark>``."""
    mine, theirs = clean(text), clean(reference)
    out: list[str] = []
    matcher = SequenceMatcher(None, theirs, mine, autojunk=False)
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        piece = str(escape(mine[j1:j2]))
        if tag == "equal" or not piece.strip():
            out.append(piece)
        else:
            out.append(f"<mark>{piece}</mark>")
    return Markup("".join(out))


def added(text: str, reference: str) -> list[Markup]:
    """What ``text`` adds to ``reference``, each piece escaped and highlighted."""
    return [
        Markup(f"<mark>{escape(piece)}</mark>")
        for piece in additions(clean(text), clean(reference))
    ]


def ticked(group: AnswerGroup) -> set[str]:
    """Members the form ticks: once the group is decided, exactly those its decision
    covered (a member left out stays out); before, all but those decided on their own."""
    if group.decided_score is not None:
        return {m.student for m in group.decided_by_group}
    return {m.student for m in group.members} - {m.student for m in group.overridden}


def member_field(result: ResultView) -> str:
    """What the form carries per member: who, and the grading and version read."""
    return f"{result.student}|{result.grading_id}|{result.review_version}"


def _parse_member(value: str) -> tuple[str, int, int] | None:
    parts = value.split("|")
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        return None
    return parts[0], int(parts[1]), int(parts[2])


class GroupRoutes(QueueRoutes):
    async def groups(self, request: Request) -> Response:
        snapshot = await self._snapshot()
        mode = request.query_params.get("exercise")
        mode = mode if mode in snapshot.left_by_exercise else None
        shared = snapshot.groups.shared(mode)
        answers = [r for r in snapshot.queue_for(mode)]
        context = {
            "snapshot": snapshot,
            "mode": mode,
            "shared": shared,
            "answers": len(answers),
            "grouped": sum(g.size for g in shared),
            "questions": snapshot.left_by_exercise,
        }
        return self._page(request, "groups.html.j2", context)

    def _group_context(self, group: AnswerGroup) -> dict[str, Any]:
        reference = group.members[0].content or ""
        overridden = {m.student for m in group.overridden}
        return {
            "group": group,
            "shown": [
                (m, added(m.content or "", reference), marked(m.content or "", reference))
                for m in group.members[:SHOWN]
            ],
            "hidden": group.members[SHOWN:],
            "overridden": overridden,
            "ticked": ticked(group),
            "decided": [m.student for m in group.decided_by_group],
            "not_decided": [m.student for m in group.undecided]
            if group.decided_score is not None
            else [],
            "member_field": member_field,
            "prefill": group.decided_score
            if group.decided_score is not None
            else group.members[0].score,
        }

    async def group(self, request: Request) -> Response:
        snapshot = await self._snapshot()
        group = snapshot.groups.by_key.get(request.path_params["key"])
        if group is None:
            return self._not_found(request)
        flash = self._flash(request)
        if flash is None and (hit := self._cached(request, snapshot)):
            return hit
        context = {"snapshot": snapshot, **self._group_context(group)}
        context["saved"] = request.query_params.get("saved") == "1"
        if flash is not None:
            context.update(error=flash.error, **flash.fields)
        return self._page(request, "group.html.j2", context, cache=flash is None)

    async def decide_group(self, request: Request) -> Response:
        form = await request.form()
        if refused := self._form_refused(request, form):
            return refused
        key = request.path_params["key"]
        snapshot = await self._snapshot()
        group = snapshot.groups.by_key.get(key)
        score, comment = str(form.get("score", "")), str(form.get("comment", ""))
        ticked = {str(v) for v in form.getlist("apply")}
        read = [p for p in (_parse_member(str(v)) for v in form.getlist("member")) if p]
        chosen = [item for item in read if item[0] in ticked]
        exercise = group.exercise if group else str(form.get("exercise", ""))
        members = []
        for student, grading_id, version in chosen:
            current = snapshot.result(student, exercise)
            if current is None:
                return self._not_found(request)
            members.append((current, grading_id, version))
        try:
            await run_in_threadpool(
                decide_group,
                self.data.book,
                key,
                members,
                score,
                comment,
                self.settings.reviewer,
            )
        except Rejected as error:
            fields = {"score_given": score, "comment_given": comment}
            return self._refused(request, f"/group/{key}", error, fields)
        except (StaleDecision, ConflictingDecision) as clash:
            read_id = next((g for s, g, _ in chosen if s == clash.decision.student), None)
            return await self._conflict(request, clash, score, comment, read_id)
        return self._redirect(request, f"/group/{key}?{urlencode({'saved': 1})}")
