"""The races and special powers the rules name, each written once, as the rulebook spells
its banner or badge.

A module that treats one race or power apart imports its name from here instead of
writing the string again (the rules' own modules directly, code outside the rules through
the facade: ``from companion.rules import names``, then ``names.CATAPULT``). Tables keyed by
name are keyed by these constants. Invariants (tests/test_rules_names.py): every name here
is a race or a power of the packaged catalog, the races in `RACES` and the powers in
`POWERS`, each written once; no other module of `companion/` writes a race's or a power's
name as a string literal (but for a short list of literals that are another thing spelled
the same: a marker's kind, a die's purpose, a JSON field, a translated template).
"""

from __future__ import annotations

# --- races (banners) ------------------------------------------------------------------------

AMAZONS = "Amazons"
BARBARIANS = "Barbarians"
DWARVES = "Dwarves"
ELVES = "Elves"
FAUNS = "Fauns"
GHOULS = "Ghouls"
GIANTS = "Giants"
GOBLINS = "Goblins"
GYPSIES = "Gypsies"
HALFLINGS = "Halflings"
HOMUNCULI = "Homunculi"
HUMANS = "Humans"
IGORS = "Igors"
KOBOLDS = "Kobolds"
LEPRECHAUNS = "Leprechauns"
ORCS = "Orcs"
PIXIES = "Pixies"
PRIESTESSES = "Priestesses"
PYGMIES = "Pygmies"
RATMEN = "Ratmen"
SHRUBMEN = "Shrubmen"
SKELETONS = "Skeletons"
SORCERERS = "Sorcerers"
TRITONS = "Tritons"
TROLLS = "Trolls"
WHITE_LADIES = "White Ladies"
WIZARDS = "Wizards"

RACES = (AMAZONS, BARBARIANS, DWARVES, ELVES, FAUNS, GHOULS, GIANTS, GOBLINS, GYPSIES,
         HALFLINGS, HOMUNCULI, HUMANS, IGORS, KOBOLDS, LEPRECHAUNS, ORCS, PIXIES, PRIESTESSES,
         PYGMIES, RATMEN, SHRUBMEN, SKELETONS, SORCERERS, TRITONS, TROLLS, WHITE_LADIES,
         WIZARDS)

# --- special powers (badges) ----------------------------------------------------------------

ALCHEMIST = "Alchemist"
AQUATIC = "Aquatic"
BARRICADE = "Barricade"
BEHEMOTH = "Behemoth"
BERSERK = "Berserk"
BIVOUACKING = "Bivouacking"
CATAPULT = "Catapult"
COMMANDO = "Commando"
CORRUPT = "Corrupt"
CURSED = "Cursed"
DIPLOMAT = "Diplomat"
DRAGON_MASTER = "Dragon Master"
FIREBALL = "Fireball"
FLYING = "Flying"
FOREST = "Forest"  # the badge; the terrain is maps.Terrain.FOREST
FORTIFIED = "Fortified"
HEROIC = "Heroic"
HILL = "Hill"  # the badge; the terrain is maps.Terrain.HILL
HISTORIAN = "Historian"
HORDES_OF = "Hordes of"
IMPERIAL = "Imperial"
MARAUDING = "Marauding"
MERCENARY = "Mercenary"
MERCHANT = "Merchant"
MOUNTED = "Mounted"
PEACE_LOVING = "Peace-Loving"
PILLAGING = "Pillaging"
RANSACKING = "Ransacking"
SEAFARING = "Seafaring"
SPIRIT = "Spirit"
STOUT = "Stout"
SWAMP = "Swamp"  # the badge; the terrain is maps.Terrain.SWAMP
UNDERWORLD = "Underworld"
WEALTHY = "Wealthy"
WERE = "Were-"

POWERS = (ALCHEMIST, AQUATIC, BARRICADE, BEHEMOTH, BERSERK, BIVOUACKING, CATAPULT, COMMANDO,
          CORRUPT, CURSED, DIPLOMAT, DRAGON_MASTER, FIREBALL, FLYING, FOREST, FORTIFIED, HEROIC,
          HILL, HISTORIAN, HORDES_OF, IMPERIAL, MARAUDING, MERCENARY, MERCHANT, MOUNTED,
          PEACE_LOVING, PILLAGING, RANSACKING, SEAFARING, SPIRIT, STOUT, SWAMP, UNDERWORLD,
          WEALTHY, WERE)
