"""Letting go of drawn instructions at once, not at the next full garbage collection.

Concept: Kivy's instructions make reference cycles of two kinds, and an object in a cycle
is freed only by a collection of the oldest generation, which the app runs only at calm
moments (`companion.ui.memory`): meanwhile a dropped drawing's meshes, lines, vertex
buffers, and an off-screen `Fbo` with its texture (GPU memory on the Pi), stay alive.

- Every instruction added to a group holds its group (`parent`) and the group holds it
  (`children`). `release` empties a group and every group under it, which undoes each link.
- A group drawn once holds itself: Kivy's graphics compiler hands back the group it is
  given, which the group keeps as its compiled children. A group made here (`group`,
  `offscreen`) has no compiler, so it never does; it is drawn exactly the same way (the
  compiler changes nothing: its result is the group itself).

So a drawing made of this module's groups and let go of with `release` is freed, every
instruction of it, by reference counts, the moment nothing else holds it.

Invariants:

- after `release(group)`, `group` and every group that was under it have no children, and
  no instruction that was under it has a parent from that tree;
- a group from `group` or `offscreen` never refers to itself;
- `group` itself stays where it is (in its canvas, if it was in one), empty, ready to be
  drawn into again;
- an instruction still held elsewhere (a shared texture, a `Color` a caller keeps) lives
  on, unharmed: only the links of the tree are undone.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Fbo, InstructionGroup


def group() -> InstructionGroup:
    """An empty group, freed by its reference count once released (no compiler)."""
    return InstructionGroup(nocompiler=True)


def offscreen(size: tuple[int, int]) -> Fbo:
    """An off-screen texture of `size` to draw into, freed (with its texture, unless held
    elsewhere) by its reference count once released (no compiler)."""
    return Fbo(size=size, nocompiler=True)


def release(group: Any) -> None:
    """Empty `group` (an `InstructionGroup`, a canvas, an `Fbo`) and every group under it."""
    stack = [group]
    while stack:
        node = stack.pop()
        for part in _parts(node):
            stack.extend(child for child in part.children if hasattr(child, "children"))
            part.clear()


def _parts(node: Any) -> list[Any]:
    """The groups a node draws: itself, and a canvas's `before` and `after` if it has them
    (asking for them would make them)."""
    parts = [node]
    if getattr(node, "has_before", False):
        parts.append(node.before)
    if getattr(node, "has_after", False):
        parts.append(node.after)
    return parts
