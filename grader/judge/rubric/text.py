"""An answer as the rubric reads it: capped, template text removed, cut into sections and
sentences.

Markdown headings are never scored: they mark sections. A heading opens the template
section whose ``heading`` pattern it matches (in the template's words or the student's);
other headings leave the section unchanged. Placeholder lines of the template are dropped,
everything else (bullets under the headings too) is the student's. Lines of one paragraph
are joined before the text is cut into sentences, so a hard-wrapped English sentence stays
one sentence. All work here is linear in the capped text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grader.judge.exercises.spec import Section
from grader.judge.rubric.patterns import compiled

#: Characters of the submission that are read at all (a reference answer has ~1,000).
MAX_CHARS = 12_000
#: A longer sentence is cut into pieces of this length.
MAX_SENTENCE = 300
#: Sentences scored at most.
MAX_SENTENCES = 300
#: Heading text looked at when telling which section a heading opens.
MAX_HEADING = 200

_HEADING = re.compile(r"#{1,6}[ \t]")
_BULLET = re.compile(r"([-*+•]|\d{1,3}[.)、]|\(?[a-zA-Z一二三四五六][).、])[ \t]?")
#: Sentence ends: zh/en punctuation, or a full stop before a space / end of line (a
#: semicolon joins two clauses of one sentence: it is a clause break for negation only).
_SENTENCE_END = re.compile(r"[。！？!?]|\.(?=\s|$)")


@dataclass(frozen=True)
class Sentence:
    text: str
    #: The template section it is in ("" before the first recognised heading, or when the
    #: answer uses none of the template's headings).
    section: str
    #: Its paragraph (a blank line or a heading starts the next; the bullets of one list
    #: are one paragraph): a claim may span two adjacent sentences of one paragraph.
    paragraph: int = 0


@dataclass(frozen=True)
class Answer:
    sentences: tuple[Sentence, ...]
    #: True when at least one heading of the answer was recognised as a template section.
    sectioned: bool
    #: True when text was left unscored (over ``MAX_CHARS`` or ``MAX_SENTENCES``).
    capped: bool
    #: Non-blank characters the student wrote (template and headings excluded).
    chars: int


def strip_comments(text: str) -> str:
    """Drop HTML comments (hidden when the Markdown is shown); an unclosed one hides the rest."""
    kept, index = [], 0
    while True:
        start = text.find("<!--", index)
        if start < 0:
            kept.append(text[index:])
            return "".join(kept)
        kept.append(text[index:start])
        end = text.find("-->", start + 4)
        if end < 0:
            return "".join(kept)
        index = end + 3


def placeholders(template: str) -> tuple[str, ...]:
    """The template's non-heading lines (its "write your answer here" placeholders)."""
    lines = (line.strip() for line in template.splitlines())
    return tuple(dict.fromkeys(line for line in lines if line and not _HEADING.match(line)))


def section_of(heading: str, sections: tuple[Section, ...]) -> str | None:
    text = heading[:MAX_HEADING]
    for section in sections:
        if next(iter(compiled(section.heading).finditer(text)), None) is not None:
            return section.name
    return None


#: Invisible characters that would split a word (zero-width spaces and joiners, BOM, soft hyphen).
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))


def normalize(text: str) -> str:
    """NFKC (full-width ＡＣＫ and ，：；（） as typed with a Chinese IME become ASCII), curly
    apostrophes straight, invisible characters gone; cut again to ``MAX_CHARS``."""
    import unicodedata

    text = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    return text.replace("\u2019", "'").replace("\u2018", "'")[:MAX_CHARS]


def read_answer(submitted: str, template: str, sections: tuple[Section, ...]) -> Answer:
    capped = len(submitted) > MAX_CHARS
    text = strip_comments(normalize(submitted[:MAX_CHARS]))
    drop = placeholders(normalize(template))
    paragraphs: list[tuple[str, str, int]] = []  # (section, text, paragraph number)
    current: list[str] = []
    section, sectioned, chars = "", False, 0
    number = 0

    def flush(*, blank: bool = True) -> None:
        nonlocal number
        if current:
            paragraphs.append((section, " ".join(current), number))
            current.clear()
        if blank:
            number += 1

    for raw in text.splitlines():
        line = raw.strip()
        if _HEADING.match(line):
            flush()
            found = section_of(line.lstrip("#").strip(), sections)
            if found is not None:
                section, sectioned = found, True
            continue
        for placeholder in drop:
            line = line.replace(placeholder, "") if placeholder in line else line
        line = line.strip()
        if not line:
            flush()
            continue
        if _BULLET.match(line):
            flush(blank=False)
        chars += sum(1 for char in line if not char.isspace())
        current.append(line)
    flush()
    sentences = [
        Sentence(piece, where, number)
        for where, paragraph, number in paragraphs
        for piece in split(paragraph)
    ]
    capped = capped or len(sentences) > MAX_SENTENCES
    return Answer(tuple(sentences[:MAX_SENTENCES]), sectioned, capped, chars)


def split(paragraph: str) -> list[str]:
    """Sentences of a paragraph, each at most ``MAX_SENTENCE`` characters, none empty."""
    pieces, start = [], 0
    for end in _SENTENCE_END.finditer(paragraph):
        pieces.append(paragraph[start : end.end()])
        start = end.end()
    pieces.append(paragraph[start:])
    out = []
    for piece in pieces:
        piece = piece.strip()
        for index in range(0, len(piece), MAX_SENTENCE):
            part = piece[index : index + MAX_SENTENCE].strip()
            if any(char.isalnum() for char in part):
                out.append(part)
    return out
