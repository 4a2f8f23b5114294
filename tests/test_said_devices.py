"""The USB stick's and the system's refusals in the table's language.

A copy to a stick that is full, read-only or reads back wrong, and a switch-off or a stick
the system will not handle, are said on the settings and home screens: `str(error)` stays
the English (logs and tests read it), `companion.ui.wording.say` words the same sentence in
the language spoken, with the numbers and the system's own words as they are.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from words_support import in_language

from companion.sentence import N_, Sentence
from companion.system_actions import ActionFailed, run, switch_off
from companion.usb import FOLDER, CopyFailed, save_copy


@pytest.fixture
def backup(tmp_path: Path) -> Path:
    """A small saved-games file with the two tables `companion.usb.counts` reads."""
    path = tmp_path / "games.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    conn.execute("CREATE TABLE events (game_id INTEGER, step INTEGER, seq INTEGER)")
    conn.executemany("INSERT INTO games VALUES (?)", [(1,), (2,)])
    conn.executemany("INSERT INTO events VALUES (?, ?, ?)", [(1, 1, 0), (1, 2, 0), (2, 1, 0)])
    conn.commit()
    conn.close()
    return path




def test_a_full_stick_is_said_in_french_and_german(
        tmp_path: Path, backup: Path) -> None:
    stick = tmp_path / "stick"
    (stick / FOLDER).mkdir(parents=True)
    (stick / FOLDER / (backup.name + ".partial")).symlink_to("/dev/full")
    with pytest.raises(CopyFailed) as failed:
        save_copy(backup, stick)
    assert str(failed.value) == ("The stick is full: the copy needs 1 MB. Free some space on "
                                 "it, or use another stick.")
    assert in_language("fr", failed.value) == (
        "La clé est pleine\u00a0: la copie a besoin de 1 Mo. Libérez de la place ou utilisez "
        "une autre clé.")
    assert in_language("de", failed.value).startswith(
        "Der Stick ist voll: Die Kopie braucht 1 MB.")


def test_a_copy_that_reads_back_wrong_names_the_counts_in_the_language(
        tmp_path: Path, backup: Path) -> None:
    stick = tmp_path / "stick"
    stick.mkdir()

    def lose_an_event(copy: Path) -> None:
        conn = sqlite3.connect(copy)
        conn.execute("DELETE FROM events WHERE game_id = 2")
        conn.commit()
        conn.close()

    with pytest.raises(CopyFailed) as failed:
        save_copy(backup, stick, _after_write=lose_an_event)
    assert "(2 games and 2 events instead of 2 and 3)" in str(failed.value)
    in_german = in_language("de", failed.value)
    assert "(2 Partien und 2 Ereignisse statt 2 und 3)" in in_german
    assert in_german.startswith("Die Kopie auf dem Stick")


def test_a_missing_command_is_said_with_its_name_as_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(ActionFailed) as failed:
        switch_off("reboot")
    assert str(failed.value) == ("The table could not be restarted: systemctl is not "
                                 "installed on this system.")
    assert in_language("fr", failed.value) == (
        "La table n'a pas pu redémarrer\u00a0: systemctl "
        "n'est pas installé sur ce système.")
    assert in_language("de", failed.value) == (
        "Der Tisch konnte nicht neu gestartet werden: "
        "systemctl ist auf diesem System nicht installiert.")


def test_a_command_that_fails_quietly_is_said_with_its_status() -> None:
    with pytest.raises(ActionFailed) as failed:
        run(["false"], Sentence(N_("The stick could not be closed ({device})"),
                                device="/dev/sdz1"))
    assert str(failed.value) == ("The stick could not be closed (/dev/sdz1): false exited "
                                 "with status 1")
    assert in_language("de", failed.value) == (
        "Der Stick konnte nicht geschlossen werden "
        "(/dev/sdz1): false endete mit Status 1")


def test_what_the_system_says_itself_is_quoted_as_it_is() -> None:
    with pytest.raises(ActionFailed) as failed:
        run(["sh", "-c", "echo 'Error: device busy' >&2; exit 3"],
            Sentence(N_("The stick could not be powered off ({disk})"), disk="/dev/sdz"))
    assert in_language("fr", failed.value) == (
        "La clé n'a pas pu être mise hors tension (/dev/sdz)"
        "\u00a0: Error: device busy")
