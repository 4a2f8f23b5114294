"""The command line speaks ``--lang`` (else the locale): its messages to people are
translated, its JSON is the same byte for byte, and a language it does not have is refused.

The doctor's checks run on the fake Raspberry Pi of ``tests/test_doctor.py``; the exports
on the games ``tests/test_store_history.py`` plays; the scores on the scenario files.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from test_doctor import FakePi, pi  # noqa: F401  (pi is a fixture)
from test_play import ANN_CONQUERS, TURN, as_text
from test_store_history import played, played_once  # noqa: F401  (fixtures)

from companion import i18n
from companion.cli import main
from companion.commands import LANGUAGES, doctor
from companion.commands.doctor import System, render

SCENARIO = Path(__file__).parent / "scenarios" / "merchant_skeletons.json"

ENGLISH = re.compile(r"\b(the|is|not|and|cannot|needs|found|again|every|where|which|would|"
                     r"this|there|from|with|only|after|into|its|running|usable|missing)\b")
"""Words of the doctor's English sentences that no French or German one of them holds."""


@pytest.fixture(autouse=True)
def back_to_english() -> Iterator[None]:
    yield
    i18n.use("en")  # the language is the process's: the next test starts in English


def run(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str, str]:
    try:
        code = main(list(words))
    except SystemExit as stop:
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_offers_the_languages_the_table_has() -> None:
    assert LANGUAGES == i18n.LANGUAGES


@pytest.mark.parametrize("command", [["doctor"], ["export", "1"], ["score", "-"], ["play", "-"]])
def test_a_language_it_does_not_have_is_refused_naming_the_ones_it_has(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *command, "--lang", "xx")
    assert code == 2
    assert out == ""
    assert "--lang" in err and "'xx'" in err
    assert all(f"'{language}'" in err for language in ("en", "fr", "de"))


# --- score and play: the same JSON ------------------------------------------------------


@pytest.mark.parametrize("language", ["fr", "de"])
def test_score_prints_the_same_json_in_every_language(
    language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, english, err = run(capsys, "score", "--lang", "en", str(SCENARIO))
    assert (code, err) == (0, "")
    code, translated, err = run(capsys, "score", "--lang", language, str(SCENARIO))
    assert (code, err) == (0, "")
    assert translated == english


def test_score_says_what_is_wrong_with_its_file_in_the_language_field_names_in_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"turn": "\xe9"}')
    expected = {
        "en": f"companion score: FILE: {str(bad)!r} is not UTF-8 text",
        "fr": f"companion score: FILE: {str(bad)!r} n'est pas du texte UTF-8",
        "de": f"companion score: FILE: {str(bad)!r} ist kein UTF-8-Text",
    }
    for language, start in expected.items():
        code, out, err = run(capsys, "score", "--lang", language, str(bad))
        assert (code, out) == (2, "")
        assert err.startswith(start), err


def test_the_score_program_of_its_own_takes_lang_too(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b"\xe9")
    done = subprocess.run(
        [sys.executable, "-m", "companion.commands.score", "--lang", "de", str(bad)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 2
    assert "ist kein UTF-8-Text" in done.stderr


def test_play_prints_the_same_json_lines_in_german_and_its_own_messages_in_german(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "game.jsonl"
    game.write_text(as_text(ANN_CONQUERS + TURN), encoding="utf-8")
    code, english, err = run(capsys, "play", "--lang", "en", str(game))
    assert code == 0, err
    code, german, err = run(capsys, "play", "--lang", "de", str(game))
    assert code == 0, err
    assert german == english
    assert german.startswith("{")
    bad = tmp_path / "latin1.jsonl"
    bad.write_bytes(b"\xe9\n")
    code, _out, err = run(capsys, "play", "--lang", "de", str(bad))
    assert code == 2
    assert err.startswith("companion play: input: kein UTF-8-Text ("), err


# --- export --------------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["json", "csv", "bgstats"])
def test_an_export_is_the_same_in_every_language(
    form: str, played: tuple[Path, int, int], capsys: pytest.CaptureFixture[str]  # noqa: F811
) -> None:
    db, one, _ = played
    outputs = set()
    for language in ("en", "fr", "de"):
        code, out, err = run(capsys, "export", str(one), "--db", str(db), "--format", form,
                             "--lang", language)
        assert (code, err) == (0, "")
        outputs.add(out)
    assert len(outputs) == 1


def test_export_tells_people_in_their_language(
    played: tuple[Path, int, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]  # noqa: F811
) -> None:
    db, one, _ = played
    code, out, err = run(capsys, "export", "99", "--db", str(db), "--lang", "fr")
    assert (code, out) == (1, "")
    assert err.startswith(f"companion export: la partie 99 n'est pas dans {db} (parties "
                          "terminées\u00a0: "), err
    target = tmp_path / "sheet.csv"
    code, out, err = run(capsys, "export", str(one), "--db", str(db), "--format", "csv",
                         "-o", str(target), "--lang", "de")
    assert (code, out) == (0, "")
    assert err == f"Partie {one} nach {target} geschrieben (csv)\n"
    missing = tmp_path / "none.sqlite3"
    code, out, err = run(capsys, "export", "1", "--db", str(missing), "--lang", "de")
    assert err == (f"companion export: unter {missing} gibt es keine Datei mit gespeicherten "
                   "Partien\n")


def test_without_lang_the_command_line_follows_the_locale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.sqlite3"
    for environment, start in (("fr", "companion export: il n'y a pas de fichier"),
                               ("de_AT:en", "companion export: unter "),
                               ("it", "companion export: there is no saved-games file")):
        monkeypatch.setenv("LANGUAGE", environment)
        code, _out, err = run(capsys, "export", "1", "--db", str(missing))
        assert code == 1
        assert err.startswith(start), (environment, err)
    monkeypatch.setenv("LANGUAGE", "fr")
    code, _out, err = run(capsys, "export", "1", "--db", str(missing), "--lang", "en")
    assert err.startswith("companion export: there is no saved-games file"), err


# --- doctor ---------------------------------------------------------------------------------


def broken(pi: FakePi) -> FakePi:  # noqa: F811
    """The fake Pi with something wrong in every area the doctor words itself."""
    pi.system.uid = 0
    pi.system.user_groups.discard("input")
    pi.system.process_groups -= {"input", "dialout"}
    pi.system.existing_groups.discard("audio")
    pi.environ["DISPLAY"] = ":0"
    pi.write("sys/module/kernel/parameters/consoleblank", "600\n")
    pi.denied |= {"/sys/class/backlight/10-0045/brightness", "/dev/input/event0",
                  "/dev/dri/card1", "/dev/smallworld-grid",
                  "/home/pi/.local/share/smallworld-companion/companion.sqlite3"}
    pi.touch_panel("event2", "resistive-ts", "1000003", "400000000000000000000")
    pi.modules.clear()
    pi.services = {"is-enabled": (1, "disabled"), "is-active": (3, "failed")}
    (pi.root / "run/systemd/timesync/synchronized").unlink()
    pi.clock = (0, "NTP=no\nNTPSynchronized=no")
    return pi


def bare(pi: FakePi) -> FakePi:  # noqa: F811
    """The fake Pi with no screen, touch panel, GPIO, grid, service or clock answer."""
    for node in ("dev/dri/card0", "dev/dri/card1", "dev/gpiochip0", "dev/input/event0",
                 "sys/class/input/event0/device/capabilities/abs"):
        (pi.root / node).unlink()
    (pi.root / "dev/smallworld-grid").unlink()
    pi.write_config('[display]\ntouch_device = "/dev/input/event9"\n'
                    'touch_provider = "hidinput"\n')
    pi.services = {"is-enabled": (1, "not-found")}
    (pi.root / "run/systemd/timesync/synchronized").unlink()
    pi.clock = None
    return pi


SETUPS: dict[str, Callable[[FakePi], FakePi]] = {
    "healthy": lambda machine: machine,
    "broken": broken,
    "bare": bare,
}


@pytest.mark.parametrize("setup", SETUPS)
@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_doctor_speaks_french_and_german_with_no_english_sentence_left(
    setup: str, language: str, pi: FakePi  # noqa: F811
) -> None:
    SETUPS[setup](pi)
    english = pi.diagnose()
    i18n.use(language)
    findings = pi.diagnose()
    assert [(f.status, f.area) for f in findings] == [(f.status, f.area) for f in english]
    report = render(findings)
    texts = [f.text for f in findings] + [report.splitlines()[-1]]
    left = [text for text in texts if ENGLISH.search(text)]
    assert left == []
    assert all(mine.text != theirs.text for mine, theirs in zip(findings, english, strict=True))
    worded = [f.text for f in english if ENGLISH.search(f.text)]
    assert len(worded) * 2 >= len(english)  # the words looked for are the English's own


def test_the_doctor_counts_its_fixes_in_german_and_french(pi: FakePi) -> None:  # noqa: F811
    broken(pi)
    i18n.use("de")
    fixes = sum(1 for f in pi.diagnose() if f.status == "fix")
    assert render(pi.diagnose()).splitlines()[-1] == (
        f"{fixes} Sachen zu beheben (die FIX-Zeilen oben).")
    i18n.use("fr")
    assert render([doctor.Finding("fix", "user", "x")]).splitlines()[-1] == (
        "1 chose à corriger (les lignes FIX ci-dessus).")
    assert render([]).splitlines()[-1] == "Rien à corriger."


def test_the_doctor_follows_lang_then_the_tables_language_then_the_locale(
    pi: FakePi, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]  # noqa: F811
) -> None:
    current: Callable[[], System] = lambda: pi.system  # noqa: E731
    monkeypatch.setattr(doctor.System, "current", staticmethod(current))
    config = str(pi.config_dir / "companion.toml")
    monkeypatch.setenv("LANGUAGE", "de")
    code, out, _err = run(capsys, "doctor", "--config", config)
    assert code == 0
    assert out.startswith("companion doctor: was hier funktioniert und was zu beheben ist\n")
    assert out.splitlines()[-1] == "Nichts zu beheben."
    pi.write_config('[display]\nlanguage = "fr"\n')
    code, out, _err = run(capsys, "doctor", "--config", config)
    assert out.splitlines()[-1] == "Rien à corriger."
    code, out, _err = run(capsys, "doctor", "--config", config, "--lang", "en")
    assert out.splitlines()[-1] == "Nothing to fix."


def test_the_doctor_on_this_machine_follows_the_language_variable(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "LANGUAGE": "de",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "KIVY_HOME": str(tmp_path / "kivy"),
    }
    done = subprocess.run([sys.executable, "-m", "companion", "doctor"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode in (0, 1), done.stderr
    assert done.stdout.startswith("companion doctor: was hier funktioniert")
    assert "zu beheben" in done.stdout.splitlines()[-1]
