"""Words, for the tests that check them: the words a module's code uses (not its comments or
docstrings), and a sentence worded in a language."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path
from typing import Any

from companion import i18n


def code_words(path: Path) -> list[str]:
    """The names and strings of a module's code: no comment, no docstring."""
    source = path.read_text("utf-8")
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for first, after in zip([None, *body], body, strict=False):
                is_doc = first is None or isinstance(first, ast.Assign | ast.AnnAssign)
                if (is_doc and isinstance(after, ast.Expr)
                        and isinstance(after.value, ast.Constant)
                        and isinstance(after.value.value, str)):
                    docstrings.update(range(after.lineno, (after.end_lineno or after.lineno) + 1))
    return [token.string for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type in (tokenize.NAME, tokenize.STRING)
            and not (token.type == tokenize.STRING and token.start[0] in docstrings)]


def in_language(language: str, what: Any) -> str:
    """`what` (a sentence, an error carrying one) worded in `language`; English after."""
    from companion.ui.wording import say

    i18n.use(language)
    try:
        return say(what)
    finally:
        i18n.use(i18n.SOURCE)
