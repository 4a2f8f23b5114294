"""The saved games' messages in the table's language: on the home screen and on the
command line, worded from the store's sentences; their English (`str(error)`, the recovery
report's `message`) is unchanged.

Everything is real: SQLite files damaged the way `tests/test_store_damage.py` damages
them, the lock taken twice, a folder that cannot be made (its parent is a file), the app's
start-up (`companion.app.Startup`) on the process's headless window, and the command line
through `companion.cli.main`.
"""

from __future__ import annotations

import os
import random
import re
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_cli_language import run

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from factories import created
from test_store_damage import break_last_record, played
from words_support import in_language

from companion import i18n
from companion.app import Startup, offer_resume, open_store
from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import DatabaseInUse, Store, StoreOpenError, StoreWriteError
from companion.store.database import write_error
from companion.store.lock import DatabaseLock
from companion.ui.widgets import MessageDialog

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NBSP = "\u00a0"
CATALOG = load_catalog()


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use(i18n.SOURCE)



# --- the store's errors ----------------------------------------------------------------------


def test_a_second_app_on_the_file_is_refused_in_the_table_s_language(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    first = DatabaseLock.acquire(db)
    try:
        with pytest.raises(DatabaseInUse) as refused:
            DatabaseLock.acquire(db)  # another open file: flock refuses it, same process
    finally:
        first.release()
    error, pid = refused.value, os.getpid()
    assert str(error) == (
        f"The saved-games file {db} is already in use by another companion app (process "
        f"{pid}); close that one first, then start this one again.")
    assert str(error.said) == str(error)
    french = in_language("fr", error.said)
    assert french == (
        f"Le fichier des parties {db} est déjà utilisé par une autre application companion "
        f"(processus {pid}){NBSP}; fermez-la d'abord, puis relancez celle-ci.")
    german = in_language("de", error.said)
    assert german.startswith(f"Die Spielstandsdatei {db} wird schon von einer anderen "
                             f"Companion-App benutzt (Prozess {pid});")
    assert str(error) == error.args[0]  # the English is untouched by the wording


def test_a_failed_write_says_what_was_not_saved_as_a_sentence_of_its_own(
    tmp_path: Path,
) -> None:
    conn = sqlite3.connect(tmp_path / "x.sqlite3")
    with pytest.raises(sqlite3.Error) as failed:
        conn.execute("SELECT * FROM no_such_table")
    conn.close()
    error = write_error(failed.value, doing="the last action", path=tmp_path / "x.sqlite3")
    assert isinstance(error, StoreWriteError) and error.reason == "other"
    assert str(error) == ("The last action was not saved: no such table: no_such_table. "
                          "Nothing was changed; try again.")
    assert in_language("fr", error.said) == (
        f"La dernière action n'a pas été enregistrée{NBSP}: no such table: no_such_table. "
        f"Rien n'a été modifié{NBSP}; réessayez.")
    assert in_language("de", error.said) == (
        "Die letzte Aktion wurde nicht gespeichert: no such table: no_such_table. Nichts "
        "wurde geändert; versucht es noch einmal.")


def test_a_plain_message_with_braces_is_shown_as_it_is() -> None:
    from companion.store import StoreError

    error = StoreError("a {strange} message")
    assert str(error) == "a {strange} message"
    assert in_language("fr", error.said) == "a {strange} message"


# --- the home screen -------------------------------------------------------------------------


@pytest.fixture
def home() -> Iterator[Any]:
    """The headless app on its home screen, English again afterwards."""
    app = ui.app_for(Session())
    ui.resize((800, 480))
    try:
        yield app
    finally:
        ui.close_dialogs()
        i18n.use(i18n.SOURCE)
        ui.pump()


def start_up(app: Any, db: Path) -> Startup:
    """The rest of the app's start-up on `db`, as after the first frame."""
    startup = Startup(app, db, None, die_pin=None, dim_after=0, dim_brightness=20,
                      grid_port="", grid_baud=115200, config_path=None)  # fmt: skip
    startup.finish()
    ui.pump()
    return startup


def shown_message(app: Any) -> str:
    [dialog] = [d for d in ui.dialogs() if isinstance(d, MessageDialog)]
    text: str = dialog.text
    return text


def test_a_damaged_file_set_aside_is_said_in_french_on_the_home_screen(
    home: Any, tmp_path: Path,
) -> None:
    db = tmp_path / "companion.sqlite3"
    played(db, turns=3, backup_after=2)
    break_last_record(db)
    i18n.use("fr")
    startup = start_up(home, db)
    try:
        assert startup.store is not None
        report = startup.store.recovery
        assert report is not None
        assert "set aside as companion.sqlite3.damaged-" in report.message  # English kept
        assert str(report.said) == report.message
        notices = home.ctx.notices
        assert notices.last_title == "Parties enregistrées"
        text = notices.last_message
        assert shown_message(home) == text
        assert text.startswith(f"Les parties enregistrées n'ont pas pu être lues{NBSP}: le "
                               "fichier était endommagé. Il a été mis de côté sous le nom "
                               "companion.sqlite3.damaged-")
        assert "La sauvegarde intacte la plus récente, faite le " in text
        assert ("La partie de Ann, Bob et Cy est revenue au tour 1 sur 10, au tour de Cy "
                "(choisir une combinaison).") in text
        assert re.search(r"faite le \d\d (janv\.|févr\.|mars|avr\.|mai|juin|juil\.|août|"
                         r"sept\.|oct\.|nov\.|déc\.) \d{4} à \d\d:\d\d", text), text
        for english in ("could not be read", "backup", "was restored", " turn ", "is lost"):
            assert english not in text, english
    finally:
        startup.close()


def test_the_recovery_message_is_worded_again_in_the_language_of_its_showing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "companion.sqlite3"
    played(db, turns=2)
    break_last_record(db)
    store, words = open_store(db)
    try:
        assert words is not None and store.recovery is not None
        assert words() == store.recovery.message  # English, as the report says it
        i18n.use("fr")
        french = words()
        i18n.use("de")
        german = words()
    finally:
        store.close()
    assert french.endswith("Aucune sauvegarde n'a pu être restaurée, car il n'y en avait "
                           f"pas{NBSP}; le companion démarre donc sans parties enregistrées.")
    assert german.endswith("Keine Sicherung ließ sich wiederherstellen, weil es keine gab, "
                           "also startet der Companion ohne gespeicherte Partien.")
    assert "companion.sqlite3.damaged-" in french and "companion.sqlite3.damaged-" in german


def test_a_folder_that_cannot_be_made_is_said_in_german(home: Any, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    db = blocker / "games" / "companion.sqlite3"
    with pytest.raises(StoreOpenError) as refused:
        Store.open(db)
    assert str(refused.value).startswith(f"The saved-games file {db} cannot be opened (")
    i18n.use("de")
    startup = start_up(home, db)
    try:
        assert startup.store is None  # the table plays on, unsaved
        notices = home.ctx.notices
        assert notices.last_title == "Gespeicherte Spiele"
        assert notices.last_message.startswith(
            f"Die Spielstandsdatei {db} lässt sich nicht öffnen (")
        assert notices.last_message.endswith(
            "). Prüft, dass ihr Ordner existiert und dem Benutzer gehört, der den Companion "
            "startet, und startet ihn dann noch einmal.")
        assert "cannot be opened" not in notices.last_message
    finally:
        startup.close()


def test_corrections_left_out_at_start_are_said_in_french(home: Any, tmp_path: Path) -> None:
    from companion.store import corrections

    db = tmp_path / "games.sqlite3"
    with Store.open(db) as store:
        store.set_setting(corrections.KEY, {"races": {"Orcs": {"tokens": 9}}})
        _catalog, left_out = corrections.corrected_catalog(store, CATALOG)
    assert left_out is not None and str(left_out).startswith(
        "The corrected numbers in the settings were not used: race Orcs, tokens")
    i18n.use("fr")
    startup = start_up(home, db)
    try:
        notices = home.ctx.notices
        assert notices.last_title == "Nombres corrigés"
        assert notices.last_message.startswith(
            f"Les nombres corrigés des réglages n'ont pas été utilisés{NBSP}: race Orcs, tokens")
        assert notices.last_message.endswith(". Corrigez-les à nouveau dans Réglages.")
    finally:
        startup.close()


def test_a_saved_game_that_cannot_be_offered_is_said_in_german(
    home: Any, tmp_path: Path,
) -> None:
    with Store.open(tmp_path / "games.sqlite3") as store:
        session = Session(CATALOG, rng=random.Random(1), store=store)
        session.begin(created(3))
        other = sqlite3.connect(store.path)
        other.execute("DROP TABLE game_seats")
        other.execute("DROP TABLE games")
        other.close()
        i18n.use("de")
        offer_resume(home, store)
    message = home.ctx.notices.last_message
    assert message.startswith("Das gespeicherte Spiel kann nicht zum Fortsetzen angeboten "
                              "werden: Die gespeicherten Partien ließen sich nicht lesen (")
    assert "Nichts wurde geändert." in message
    assert "could not be read" not in message


# --- the command line ------------------------------------------------------------------------


def test_export_on_a_damaged_file_speaks_german(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "companion.sqlite3"
    played(db, turns=1)
    with open(db, "r+b") as stream:  # the header's pages overwritten: not a database
        stream.seek(0)
        stream.write(b"\xff" * 4096)
    code, out, err = run(capsys, "export", "1", "--db", str(db), "--lang", "de")
    assert (code, out) == (1, "")
    assert err.startswith(f"companion export: Die Spielstandsdatei {db} ist beschädigt (")
    assert "Nichts wurde geändert; startet die Companion-App" in err
    code, _out, english = run(capsys, "export", "1", "--db", str(db), "--lang", "en")
    assert english.startswith(f"companion export: The saved-games file {db} is damaged (")


def test_export_on_a_missing_file_speaks_german(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    missing = tmp_path / "none.sqlite3"
    code, out, err = run(capsys, "export", "1", "--db", str(missing), "--lang", "de")
    assert (code, out) == (1, "")
    assert err == (f"companion export: unter {missing} gibt es keine Datei mit gespeicherten "
                   "Partien\n")


def test_run_says_in_french_that_another_app_holds_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("COMPANION_KIOSK", raising=False)
    config = tmp_path / "companion.toml"
    config.write_text('[display]\nlanguage = "de"\n')
    db = tmp_path / "companion.sqlite3"
    lock = DatabaseLock.acquire(db)
    try:
        code, out, err = run(capsys, "run", "--lang", "fr", "--db", str(db),
                             "--config", str(config))  # fmt: skip
        assert (code, out) == (75, "")
        assert err == (f"companion: Le fichier des parties {db} est déjà utilisé par une "
                       f"autre application companion (processus {os.getpid()}){NBSP}; "
                       "fermez-la d'abord, puis relancez celle-ci.\n")
        code, out, err = run(capsys, "run", "--db", str(db), "--config", str(config))
        assert code == 75  # without --lang: the language the table speaks (the config's)
        assert err.startswith(f"companion: Die Spielstandsdatei {db} wird schon von einer "
                              "anderen Companion-App benutzt")
    finally:
        lock.release()


def test_run_words_a_refused_size_in_german() -> None:
    from companion.commands.run import window_size
    from companion.config import Config

    i18n.use("de")
    config, refused = window_size(Config(), "big")
    assert config == Config()
    assert refused is not None
    assert refused.startswith("--size 'big' ist nicht erlaubt: ")
    assert refused.endswith(". Verwendet wird 800x480")


def test_grid_monitor_says_in_german_that_the_port_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    port = tmp_path / "ttyACM9"
    code, out, err = run(capsys, "grid-monitor", str(port), "--lang", "de")
    assert (code, out) == (1, "")
    assert err == (f"companion grid-monitor: es gibt keinen Port {port} (ist das Raster "
                   "eingesteckt? 'companion doctor' listet die seriellen Ports auf)\n")


def test_grid_sim_says_in_french_that_its_script_cannot_be_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    script = tmp_path / "none.txt"
    code, out, err = run(capsys, "grid-sim", str(script), "--lang", "fr")
    assert (code, out) == (2, "")
    assert err == (f"companion grid-sim: impossible de lire le script {script}{NBSP}: "
                   "No such file or directory\n")  # the system's own words, as they are
