"""The group's corrections of catalog numbers that rest on one source, kept in the settings.

Concept: one setting, `KEY`, holds the corrections document of
`companion.rules.corrections` (``{"races": {...}, "powers": {...}}``). `corrected_catalog` is the
packaged catalog with the saved corrections applied, as the app starts; `save` checks new
corrections against the catalog before writing them, so a refused value is never saved.

Invariants: what is saved always applies to the packaged catalog it was checked against;
a saved document that no longer applies (the data files changed) is reported and left
out, never a reason not to start; no corrections saved means no setting at all.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.rules.catalog import Catalog
from companion.rules.corrections import (
    CorrectionError,
    Override,
    corrected,
    document,
    read_document,
)
from companion.rules.said import Said, said
from companion.store.store import Store

KEY = "catalog.corrections"


def saved(store: Store) -> tuple[Override, ...]:
    """The corrections saved in the settings (unchecked against a catalog)."""
    return read_document(store.setting(KEY))


def corrected_catalog(store: Store | None, catalog: Catalog) -> tuple[Catalog, Said | None]:
    """`catalog` with the saved corrections, and why they were left out if they were, as
    a sentence a screen words in the table's language (its `str` is the English)."""
    if store is None:
        return catalog, None
    try:
        return corrected(catalog, saved(store)), None
    except CorrectionError as refused:
        return corrected(catalog, ()), said(
            "The corrected numbers in the settings were not used: {reason}. "
            "Correct them again in Settings.", reason=refused.said)


def save(store: Store, catalog: Catalog, overrides: Iterable[Override]) -> Catalog:
    """Check `overrides` against `catalog`, save them, and give the corrected catalog.

    Raises `CorrectionError` (and saves nothing) for a value the catalog refuses.
    """
    given = tuple(overrides)
    result = corrected(catalog, given)
    if given:
        store.set_setting(KEY, document(given))
    else:
        store.delete_setting(KEY)
    return result
