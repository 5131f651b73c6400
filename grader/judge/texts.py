"""The texts about one exercise or one stand-in, registered for the catalogue (``grader.render``).

They sit beside what they describe, zh and en side by side:

- ``grader/judge/exercises/ex_NN_MM.texts.toml``: the exercise's title (``exercise.<id>.title``);
- ``grader/variants/<target>.texts.toml``: beside a stand-ins file, each twin's name
  (``twin.<name>``) and each mutant's description and hint (``mutant.<name>``,
  ``mutant.<name>.hint``); read as data, so the stand-ins module is never imported here;
- a prose exercise's answer key (``grader/private/<id>.toml``, absent from the student copy):
  its concept summaries and section labels (``grader.judge.exercises.answer_key``).

A texts file is a table per message id: ``["mutant.always_true"]`` then ``zh = "..."`` and
``en = "..."``. These files are presentation only: the verdict fingerprint leaves out every
``*.texts.toml`` (``TEXTS_SUFFIX``). The render layer imports this module, never the reverse.
"""

from __future__ import annotations

import time
import tomllib
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

from grader.errors import InternalError
from grader.judge.exercises.answer_key import LANGS, answer_key, private_files
from grader.variants.targets import TARGETS

TEXTS_SUFFIX = ".texts.toml"
EXERCISES_DIR = Path(__file__).resolve().parent / "exercises"
RECHECK_SECONDS = 1.0
_last: tuple[float, Texts | None] = (0.0, None)
Texts = Mapping[str, Mapping[str, str]]


def texts_file(beside: Path) -> Path:
    """The texts file beside a spec or stand-ins module (``policy.py``: ``policy.texts.toml``)."""
    return beside.with_name(beside.stem + TEXTS_SUFFIX)


def registered_texts() -> Texts:
    """Every registered text: ``{message id: {"zh": ..., "en": ...}}``.

    Looked at again at most every ``RECHECK_SECONDS`` and re-read when a file was added,
    removed or changed (the cache key is every file's size and modification time), so a
    long-lived kernel shows the current wording a moment after an edit.
    """
    global _last
    now = time.monotonic()
    checked_at, texts = _last
    if texts is None or now - checked_at >= RECHECK_SECONDS:
        texts = _collect(tuple(_signature(path) for path in _sources()))
        _last = (now, texts)
    return texts


def _sources() -> Iterator[Path]:
    yield from sorted(EXERCISES_DIR.glob(f"ex_*{TEXTS_SUFFIX}"))
    yield from sorted({texts_file(target.stand_ins.resolve()) for target in TARGETS.values()})
    yield from private_files()


def _signature(path: Path) -> tuple[Path, int, int]:
    try:
        stat = path.stat()
    except OSError:
        return path, -1, -1
    return path, stat.st_mtime_ns, stat.st_size


@cache
def _collect(signature: tuple[tuple[Path, int, int], ...]) -> Texts:
    found: dict[str, Mapping[str, str]] = {}
    for path, _mtime, size in signature:
        if size < 0:
            continue
        if path.name.endswith(TEXTS_SUFFIX):
            texts = _read(path)
        else:  # an answer key: its own loader checks it
            key = answer_key(path.stem)
            texts = key.texts if key is not None else {}
        if twice := set(texts) & set(found):
            raise InternalError(
                "error.texts_file", path=str(path), detail=f"ids given twice: {sorted(twice)}"
            )
        found.update(texts)
    return found


def _read(path: Path) -> dict[str, dict[str, str]]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise InternalError("error.texts_file", path=str(path), detail=str(error)) from error
    texts = {}
    for message_id, entry in data.items():
        if not isinstance(entry, dict) or set(entry) != set(LANGS):
            detail = f'["{message_id}"] must hold exactly zh = "..." and en = "..."'
            raise InternalError("error.texts_file", path=str(path), detail=detail)
        if not all(isinstance(entry[lang], str) and entry[lang] for lang in LANGS):
            detail = f'["{message_id}"]: zh and en must be non-empty strings'
            raise InternalError("error.texts_file", path=str(path), detail=detail)
        texts[message_id] = {lang: entry[lang] for lang in LANGS}
    return texts
