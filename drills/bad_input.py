"""Bad input: every way in, given what it should refuse, answered in plain words.

- `companion score`: every field of the documented scenarios (docs/score-format.md) given
  values of the wrong type and out of range, an unknown field in every object, and
  broken documents (not JSON, not UTF-8, NaN, nested too deep, a key twice...). Each must
  exit 2 with exactly one line on stderr naming the field (the field itself, the object
  holding it, or a field inside it), nothing on stdout, and no traceback. A value the
  command accepts is listed (it may be a valid value); the scenario file is never changed.
- `companion.toml`: every key of `companion.config.KEYS` given values it does not allow,
  one at a time beside a good key; and broken files (not TOML, not UTF-8, a directory,
  unknown sections and keys, a section that is not a table). Reading must never raise;
  each bad key gets one warning naming the key and what is allowed, the key falls back to
  its default, the good key keeps its value, and the file is not changed.

A damaged saved-games file is `drills/damaged_database.py`'s; a bad config given to the
real app is `drills/config.py`'s (with the values here).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from drills.report import Drill

# --- companion score -------------------------------------------------------------------------

SCENARIOS: list[dict[str, Any]] = [
    {"map": "2p", "turn": 4, "player": {
        "active": {"race": "Orcs", "power": "Pillaging", "first_turn": False,
                   "regions": [3, 7, {"terrain": "hill", "features": ["mine"], "coastal": True}],
                   "conquered_non_empty": 2, "fortresses": 0},
        "declined": [{"race": "Dwarves", "power": "Hill", "regions": [5, 9],
                      "this_turn": False}]}},
    {"turn": 3, "player": {"active": {"race": "Dwarves", "power": "Swamp",
                                      "counts": {"swamp": 2, "mountain": 1, "mines": 2}}}},
    {"turn": 5, "player": {"active": {"race": "Ratmen", "power": "Aquatic", "counts": {
        "hill": 2, "forest": 1, "swamp": 1, "coastal": 3}}}},
    {"turn": 6, "player": {"active": {"race": "Gypsies", "power": "Forest", "regions": [
        {"terrain": "forest"}, {"terrain": "hill"}], "abandoned": 2}}},
    {"map": "2p", "turn": 3, "player": {"active": {
        "race": "Elves", "power": "Peace-Loving", "regions": [10, 11],
        "attacked_active_race": False}}},
    {"turn": 7, "player": {"active": {"race": "Leprechauns", "power": "Imperial",
                                      "counts": {"farmland": 3, "hill": 2}, "pots_of_gold": 3}}},
    {"turn": 8, "player": {
        "active": {"race": "Trolls", "power": "Barricade",
                   "regions": [{"terrain": "hill"}, {"terrain": "swamp"}]},
        "declined": [{"race": "Priestesses", "power": "Hill", "regions": [{"terrain": "hill"}],
                      "ivory_tower": 4}]}},
    {"turn": 4, "player": {"active": {"race": "Humans", "power": "Historian", "first_turn": True,
                                      "regions": [{"terrain": "farmland"}],
                                      "historian": {"in_decline_when_picked": 2}}}},
    {"turn": 6, "player": {"declined": [{"race": "Ratmen", "power": "Historian",
                                         "this_turn": True,
                                         "regions": [{"terrain": "hill"}, {"terrain": "forest"}],
                                         "historian": {"others_declined": 1}}]}},
]

BAD_VALUES: list[Any] = [None, True, False, "text", "", 1.5, -1, 0, 10**30, [], {}, [1, "x"],
                         {"x": 1}]

BROKEN_DOCUMENTS: list[tuple[str, bytes]] = [
    ("empty file", b""),
    ("not JSON", b"turn: 3"),
    ("cut short", b'{"turn": 3, "player": {"active": '),
    ("a list", b"[1, 2]"),
    ("null", b"null"),
    ("NaN", b'{"turn": NaN, "player": {}}'),
    ("Infinity", b'{"turn": Infinity, "player": {}}'),
    ("a key twice", b'{"turn": 3, "turn": 4, "player": {}}'),
    ("not UTF-8", b'{"turn": 3, "player": {"active": {"race": "\xff\xfe"}}}'),
    ("nested too deep", b"[" * 100_000 + b"]" * 100_000),
    ("a huge number", b'{"turn": 1' + b"0" * 5000 + b', "player": {}}'),
]


def _paths(value: Any, path: str = "") -> Iterator[tuple[str, tuple[Any, ...]]]:
    """Every field of a JSON document: (printed path, the keys that reach it)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, f"{path}.{key}" if path else key, (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]", (index,))


def _walk(value: Any, path: str, keys: tuple[Any, ...]) -> Iterator[tuple[str, tuple[Any, ...]]]:
    yield path, keys
    for sub_path, sub_keys in _paths(value, path):
        yield sub_path, keys + sub_keys


def _objects(value: Any, path: str = "", keys: tuple[Any, ...] = ()) -> Iterator[
        tuple[str, tuple[Any, ...]]]:
    """Every object of the document (where an unknown field can be added)."""
    if isinstance(value, dict):
        yield path, keys
        for key, item in value.items():
            yield from _objects(item, f"{path}.{key}" if path else key, (*keys, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _objects(item, f"{path}[{index}]", (*keys, index))


def _replaced(doc: Any, keys: tuple[Any, ...], value: Any) -> Any:
    copy = json.loads(json.dumps(doc))
    target = copy
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = value
    return copy


def _score(file: Path) -> tuple[int, str, str]:
    from companion.commands import score

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = score.main([str(file)])
        except SystemExit as leaving:
            code = int(leaving.code or 0)
        except Exception:  # what a user would see: a traceback and exit status 1
            import traceback

            traceback.print_exc()
            code = 1
    return code, out.getvalue(), err.getvalue()


def _names(reported: str, path: str) -> bool:
    """Whether the reported field is the field, an object holding it, or a field in it."""
    if reported in ("input", "FILE") or not path:
        return True
    for a, b in ((path, reported), (reported, path)):
        if a == b or a.startswith(b + ".") or a.startswith(b + "["):
            return True
    return False


def score_cases(work: Path, scenarios: int | None = None) -> dict[str, Any]:
    file = work / "scenario.json"
    refused = accepted = unclear = named_itself = 0
    accepted_examples: list[str] = []
    unclear_examples: list[str] = []
    unchanged = True

    def run(text: bytes, path: str, what: str, fields: frozenset[str] = frozenset()) -> None:
        nonlocal refused, accepted, unclear, unchanged, named_itself
        file.write_bytes(text)
        digest = hashlib.sha256(text).hexdigest()
        code, out, err = _score(file)
        unchanged = unchanged and hashlib.sha256(file.read_bytes()).hexdigest() == digest
        lines = err.splitlines()
        if code == 0 and not err:
            accepted += 1
            if len(accepted_examples) < 400:
                accepted_examples.append(f"{what}")
            return
        reported = ""
        if lines and lines[0].startswith("companion score: "):
            reported = lines[0][len("companion score: "):].split(": ", 1)[0]
        # The field named may be the one changed (or the object holding it, or a field in
        # it), or another field whose value no longer fits (map = null makes the region ids
        # the fault): either way it must be a field of the document.
        known = _names(reported, path) or any(_names(reported, f) for f in fields)
        if (code == 2 and not out and len(lines) == 1 and "Traceback" not in err
                and reported and known):
            refused += 1
            named_itself += _names(reported, path)
        else:
            unclear += 1
            if len(unclear_examples) < 20:
                unclear_examples.append(f"{what}: exit {code}, stderr {err[-200:]!r}")

    for n, doc in enumerate(SCENARIOS[:scenarios]):
        base = json.dumps(doc).encode()
        code, _, err = _score(_write(file, base))
        if code != 0:
            unclear += 1
            unclear_examples.append(f"scenario {n} itself is refused: {err.strip()}")
        fields = frozenset(p for p, _ in _paths(doc))
        for path, keys in _paths(doc):
            for value in BAD_VALUES:
                original = _get(doc, keys)
                if json.dumps(value) == json.dumps(original):
                    continue
                run(json.dumps(_replaced(doc, keys, value)).encode(), path,
                    f"scenario {n}: {path} = {json.dumps(value)[:40]}", fields)
        for path, keys in _objects(doc):
            bogus = json.loads(json.dumps(doc))
            target = _get(bogus, keys) if keys else bogus
            target["bogus_field"] = 1
            run(json.dumps(bogus).encode(), f"{path}.bogus_field" if path else "bogus_field",
                f"scenario {n}: unknown field in {path or 'the top object'}")
    for what, text in BROKEN_DOCUMENTS:
        run(text, "", what)
    missing = work / "no-such-scenario.json"
    code, out, err = _score(missing)
    if code == 2 and not out and len(err.splitlines()) == 1 and "FILE" in err:
        refused += 1
    else:
        unclear += 1
        unclear_examples.append(f"missing file: exit {code}, {err!r}")
    return {"refused": refused, "named_the_changed_field": named_itself,
            "accepted": accepted, "unclear": unclear,
            "accepted_examples": accepted_examples, "unclear_examples": unclear_examples,
            "file_unchanged": unchanged}


def _write(file: Path, data: bytes) -> Path:
    file.write_bytes(data)
    return file


def _get(doc: Any, keys: tuple[Any, ...]) -> Any:
    for key in keys:
        doc = doc[key]
    return doc


# --- companion.toml ------------------------------------------------------------------------------

BROKEN_TOML_FILES: list[tuple[str, bytes | None]] = [
    ("not TOML", b"[display\nrotation = "),
    ("not UTF-8", b"[display]\nrotation = 90 # \xff\xfe\n"),
    ("an unknown section", b"[dispaly]\nrotation = 90\n"),
    ("an unknown key", b"[display]\nrotatoin = 90\n"),
    ("a section that is a value", b"display = 5\n"),
    ("a directory", None),
]
"""A config file broken whole: what it is, and its bytes (None: a folder in its place)."""

BAD_TOML = ['"text"', '""', "1.5", "-1", "0", "99999999", "true", "false", "[1, 2]",
            "{ a = 1 }", "1979-05-27", '"/dev/input/"', '"relative/path"', '"/"',
            "nan", "inf", "-0", "1e3", "0x11", '"17"']


def config_cases(work: Path) -> dict[str, Any]:
    from companion.config import KEYS, Config, load_config

    defaults = Config()
    file = work / "companion.toml"
    answered = unclear = skipped = 0
    examples: list[str] = []
    unchanged = True
    for spec in KEYS:
        good_section, good_key, good_text, good_value = (
            ("die", "debounce_ms", "100", 100) if spec.key == "display.rotation"
            else ("display", "rotation", "90", 90))
        for literal in BAD_TOML:
            value = tomllib.loads(f"v = {literal}")["v"]
            try:
                spec.parse(value)
                skipped += 1  # allowed for this key: not a bad value
                continue
            except Exception:  # the config module's own rejection
                pass
            sections: dict[str, list[str]] = {}
            sections.setdefault(good_section, []).append(f"{good_key} = {good_text}")
            sections.setdefault(spec.section, []).append(f"{spec.name} = {literal}")
            text = "\n".join(f"[{name}]\n" + "\n".join(lines) for name, lines in
                             sections.items()) + "\n"
            file.write_text(text)
            try:
                config, warnings = load_config(file)
            except Exception as error:
                unclear += 1
                examples.append(f"{spec.key} = {literal}: raised {error!r}")
                continue
            unchanged = unchanged and file.read_text() == text
            mine = [w for w in warnings if w.key == spec.key]
            value_now = getattr(getattr(config, spec.section), spec.name)
            kept = getattr(getattr(config, good_section), good_key) == good_value
            ok = (len(mine) == 1 and spec.key in mine[0].message
                  and spec.allowed in mine[0].message and "default" in mine[0].message
                  and value_now == getattr(getattr(defaults, spec.section), spec.name)
                  and kept and len(warnings) == 1)
            if ok:
                answered += 1
            else:
                unclear += 1
                if len(examples) < 20:
                    said = [w.message for w in warnings]
                    examples.append(f"{spec.key} = {literal}: warnings {said}, "
                                    f"value {value_now!r}, good key kept {kept}")
    files = [*BROKEN_TOML_FILES, ("missing", b"")]
    for what, data in files:
        target = work / f"bad-{len(what)}.toml"
        if data is None:
            target = work / "a-directory.toml"
            target.mkdir(exist_ok=True)
        elif what == "missing":
            target = work / "missing.toml"
        else:
            target.write_bytes(data)
        try:
            config, warnings = load_config(target)
        except Exception as error:
            unclear += 1
            examples.append(f"{what}: raised {error!r}")
            continue
        if warnings and all(w.message for w in warnings) and (
                config.display == defaults.display or what in ("an unknown key",)):
            answered += 1
        else:
            unclear += 1
            examples.append(f"{what}: {[w.message for w in warnings]}")
    return {"answered": answered, "unclear": unclear, "valid_values_skipped": skipped,
            "examples": examples, "file_unchanged": unchanged}


def drill(work: Path, *, small: bool = False) -> Drill:
    """`small`: one scenario (for the smoke test)."""
    started = time.monotonic()
    score = score_cases(work / "score", scenarios=1 if small else None)
    config = config_cases(work / "config")
    result = Drill(
        "Bad input",
        f"`companion score` with every field of {len(SCENARIOS)} documented scenarios given "
        f"{len(BAD_VALUES)} wrong types and values, an unknown field in every object and "
        f"{len(BROKEN_DOCUMENTS)} broken documents; every companion.toml key given the values "
        f"among {len(BAD_TOML)} that it does not allow, and 7 broken files",
    )
    total = score["refused"] + score["unclear"]
    result.check("score: bad inputs refused with one line naming the field (exit 2)",
                 f"{score['refused']} of {total}", "all", score["unclear"] == 0)
    result.check("  of which naming the changed field itself (else the field it breaks)",
                 score["named_the_changed_field"])
    result.check("score: changed values it accepted (valid values, listed in the JSON)",
                 score["accepted"])
    result.check("score: scenario file unchanged", "yes" if score["file_unchanged"] else "NO",
                 "yes", score["file_unchanged"])
    total = config["answered"] + config["unclear"]
    result.check("config: bad values warned by key with what is allowed, default used",
                 f"{config['answered']} of {total}", "all", config["unclear"] == 0)
    result.check("config: file unchanged", "yes" if config["file_unchanged"] else "NO", "yes",
                 config["file_unchanged"])
    result.seconds = time.monotonic() - started
    result.detail = {"score": {k: v for k, v in score.items() if k != "accepted_examples"},
                     "score_accepted_examples": score["accepted_examples"][:60],
                     "config": config}
    return result
