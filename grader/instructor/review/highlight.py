"""Students' files as highlighted, escaped HTML (Pygments escapes every character it emits).

The text is cleaned of terminal escapes and control characters first, so nothing in it can
change how the page looks beyond its colours. Python for code exercises (and the code cells
of a notebook, which the gradebook stores as extracted text); Markdown for prose.
"""

from __future__ import annotations

from functools import cache

from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import MarkdownLexer, PythonLexer

from grader.judge.sanitize import clean

CSS_CLASS = "highlight"
#: Longer texts are cut for display (the gradebook keeps them whole).
MAX_CHARS = 200_000


@cache
def _formatter() -> HtmlFormatter:
    return HtmlFormatter(cssclass=CSS_CLASS, linenos="inline", wrapcode=True)


def highlighted(text: str, kind: str) -> Markup:
    lexer = PythonLexer() if kind == "code" else MarkdownLexer()
    shown = clean(text)[:MAX_CHARS]
    return Markup(highlight(shown, lexer, _formatter()))


@cache
def stylesheet() -> str:
    return str(_formatter().get_style_defs(f".{CSS_CLASS}"))
