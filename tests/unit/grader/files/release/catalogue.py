MESSAGES: dict[str, str] = {
    "concept.found": "This point was found.",
    "concept.EX-11-02.one_line": "an expected point on one line",
    "concept.EX-11-02.block": ("an expected point in a block"),
    "exercise.EX-11-02.title": "kept",
}
