MESSAGES: dict[str, str] = {
    "concept.found": "This point was found.",
    "exercise.EX-11-02.title": "kept",
}
