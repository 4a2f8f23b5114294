"""The races and special powers the rules name, each written once, as the rulebook spells
its banner or badge.

A rule module that treats one race or power apart imports its name from here instead of
writing the string again. Invariant (tests/test_rules_names.py): every name here is a race
or a power of the packaged catalog, the races in `RACES` and the powers in `POWERS`.
"""

from __future__ import annotations

# --- races (banners) ------------------------------------------------------------------------

AMAZONS = "Amazons"
ELVES = "Elves"
GHOULS = "Ghouls"
GYPSIES = "Gypsies"
HOMUNCULI = "Homunculi"
LEPRECHAUNS = "Leprechauns"
PRIESTESSES = "Priestesses"
PYGMIES = "Pygmies"
SKELETONS = "Skeletons"
SORCERERS = "Sorcerers"
TROLLS = "Trolls"

RACES = (AMAZONS, ELVES, GHOULS, GYPSIES, HOMUNCULI, LEPRECHAUNS, PRIESTESSES, PYGMIES,
         SKELETONS, SORCERERS, TROLLS)

# --- special powers (badges) ----------------------------------------------------------------

AQUATIC = "Aquatic"
BERSERK = "Berserk"
CATAPULT = "Catapult"
CORRUPT = "Corrupt"
CURSED = "Cursed"
FLYING = "Flying"
FORTIFIED = "Fortified"
MERCENARY = "Mercenary"
PEACE_LOVING = "Peace-Loving"
RANSACKING = "Ransacking"
SEAFARING = "Seafaring"
SPIRIT = "Spirit"
STOUT = "Stout"

POWERS = (AQUATIC, BERSERK, CATAPULT, CORRUPT, CURSED, FLYING, FORTIFIED, MERCENARY,
          PEACE_LOVING, RANSACKING, SEAFARING, SPIRIT, STOUT)
