"""The hardware package stands alone, and its protocol document tells the truth."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.grid.protocol import Parser, Rejected, Role, SequenceGap, crc16

ROOT = Path(__file__).resolve().parents[1]
HARDWARE = ROOT / "hardware"
PROTOCOL_DOC = ROOT / "docs" / "grid-protocol.md"


def test_no_hardware_module_imports_companion() -> None:
    offenders = []
    for path in sorted(HARDWARE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names
                          if n.split(".")[0] == "companion"]  # fmt: skip
    assert offenders == []


def test_importing_the_hardware_package_loads_no_ui_and_no_companion() -> None:
    code = (
        "import sys\n"
        "import hardware.button, hardware.dispatch\n"
        "import hardware.grid.protocol, hardware.grid.link, hardware.grid.settle\n"
        "import hardware.grid.calibration, hardware.grid.sim\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('companion', 'kivy', 'gpiozero', 'serial')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)  # fmt: skip
    # gpiozero and pyserial are imported only when a button or a port is opened.
    assert out.stdout.strip() == "[]"


def _documented_frames() -> list[tuple[str, str]]:
    text = PROTOCOL_DOC.read_text()
    return re.findall(r"^(host|grid): (\$.*)$", text, flags=re.MULTILINE)


def test_the_protocol_document_has_examples_from_both_sides() -> None:
    sides = [side for side, _ in _documented_frames()]
    assert sides.count("host") >= 2 and sides.count("grid") >= 8


@pytest.mark.parametrize(("side", "frame"), _documented_frames())
def test_every_example_frame_in_the_protocol_document_is_correct(side: str, frame: str) -> None:
    body, _, crc = frame[1:].rpartition("*")
    assert crc == f"{crc16(body.encode()):04X}", (
        f"{frame}: the CRC should be {crc16(body.encode()):04X}"
    )
    role = Role.DEVICE if side == "host" else Role.HOST
    events = Parser(role).feed(frame.encode() + b"\n")
    assert len(events) == 1 and not isinstance(events[0], Rejected | SequenceGap), events


def test_the_documented_bad_frames_are_rejected() -> None:
    parser = Parser()
    events = parser.feed(b"$HB,3,12*B968\n$HB,3,12*b967\n$HB,3,1$HB,3,12*B967\n")
    assert [type(e).__name__ for e in events] == ["Rejected", "Rejected", "Rejected", "Heartbeat"]
