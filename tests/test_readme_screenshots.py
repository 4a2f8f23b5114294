"""The README's pictures (`tests/screenshots.py --readme`): each scenario of `README_SHOTS`
has its PNG in docs/screenshots, 800x480 and small, and the README shows each of them."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from screenshots import README_DIR, README_LANGUAGE_SHOTS, README_SHOTS, ROOT

MAX_BYTES = 120_000


def test_every_readme_picture_is_an_800x480_png_of_modest_size_shown_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    shots = [*README_SHOTS, *(f"{name}_{lang}" for name, lang in README_LANGUAGE_SHOTS)]
    for name in shots:
        path = README_DIR / f"{name}.png"
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", path
        width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk
        assert (width, height) == (800, 480), path
        assert len(data) < MAX_BYTES, path
        assert f"(docs/screenshots/{name}.png)" in readme, name
    assert sorted(p.stem for p in README_DIR.glob("*.png")) == sorted(shots)
