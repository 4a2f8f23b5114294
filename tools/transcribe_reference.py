"""One-off developer script: turn ../shared/reference into the project's own data files.

    python tools/transcribe_reference.py [REFERENCE_DIR]

Writes `companion/data/races.json`, `powers.json`, `components.json` and
`companion/data/boards/{2,3,4,5}p.json` in the format `companion.rules.catalog` and
`companion.rules.maps` document. The numbers come from the reference files; the summaries
are written here in the project's own words (never copied from the rules text).

After the first run the JSON files are the source of truth: a player may correct a number
there. Running this script again overwrites them. The app never reads ../shared.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "companion" / "data"
DEFAULT_REFERENCE = ROOT.parent / "shared" / "reference"

EXPANSIONS: list[tuple[str, str, str]] = [
    # (id, display name, name used in the reference files)
    ("base", "Base game", "base"),
    ("cursed", "Cursed!", "Cursed!"),
    ("grand-dames", "Grand Dames of Small World", "Grand Dames of Small World"),
    ("be-not-afraid", "Be Not Afraid...", "Be Not Afraid..."),
    ("royal-bonus", "Royal Bonus", "Royal Bonus"),
]

RACE_SUMMARIES: dict[str, str] = {
    "Amazons": "Four extra Amazons join every conquest but never defend: after redeploying, "
    "lift four off the board and take them back when you next ready your troops.",
    "Dwarves": "Every Mine region they hold earns one extra coin at the end of the turn, "
    "and this keeps paying after the Dwarves go into decline.",
    "Elves": "Losing a region to an enemy costs them no token: every Elf there returns to "
    "hand for redeployment.",
    "Ghouls": "On decline every Ghoul stays where it stands, and the declined Ghouls keep "
    "conquering each turn before your active race moves (they may even attack it).",
    "Giants": "A region next to a Mountain region they hold costs one Giant less to conquer "
    "(never less than one).",
    "Halflings": "They may make their first conquest anywhere on the map; the first two "
    "regions they take get a Hole-in-the-Ground that shields them until abandoned or "
    "until decline.",
    "Humans": "Every Farmland region they hold earns one extra coin at the end of the turn.",
    "Orcs": "Every non-empty region they conquered this turn earns one extra coin.",
    "Ratmen": "No special trait: their strength is the size of the horde.",
    "Skeletons": "At redeployment, take one new Skeleton from the tray for every two "
    "non-empty regions conquered this turn.",
    "Sorcerers": "Once per turn against each opponent, swap a lone active enemy token in an "
    "adjacent region for a Sorcerer from the tray.",
    "Tritons": "Regions beside a sea or lake cost one Triton less to conquer (never less "
    "than one).",
    "Trolls": "Each region they hold gets a Troll's Lair worth one more defence; lairs stay "
    "through decline and go when the region is lost or left.",
    "Wizards": "Every Magic Source region they hold earns one extra coin at the end of the turn.",
    "Goblins": "A region held by a race in decline costs one Goblin less to conquer (never "
    "less than one).",
    "Kobolds": "They never hold or attack a region with fewer than two Kobolds; in decline "
    "they keep one token per region as usual.",
    "Gypsies": "Each region they abandon gets a coin from the bank; it cannot be retaken "
    "this turn, and those coins are theirs at the end of the turn.",
    "Priestesses": "On decline, one Priestess from each region gathers into an Ivory Tower "
    "in a single region and the rest leave; the Tower earns one coin per Priestess in it "
    "each turn instead of the usual decline scoring.",
    "White Ladies": "Once in decline they cannot be conquered or touched by other players' "
    "race and special powers.",
    "Barbarians": "They never redeploy at the end of the turn; tokens spent on a failed "
    "final conquest stay off the board until the next turn.",
    "Homunculi": "Each time a player passes over their combo, a Homunculus token is added "
    "to it with the coin; whoever finally takes the combo gets those tokens too.",
    "Leprechauns": "At redeployment they place Pots of Gold in their regions; a Pot still "
    "there at the start of their next turn is a coin, unless a conqueror took it first.",
    "Pixies": "After redeploying only one Pixie stays in each region; the others wait off "
    "the board until the next turn.",
    "Pygmies": "Each time a Pygmy is lost, roll the reinforcement die and gain that many "
    "new Pygmies (while any remain), placed at the end of the current turn.",
    "Fauns": "At redeployment they gain a token for every active region conquered this "
    "turn, and each victim gains a token for every region it lost to them.",
    "Igors": "They collect every token lost in conquests, even their own; at the start of "
    "their turn every batch as large as the number of players becomes one new Igor.",
    "Shrubmen": "Forest regions they hold are immune to other players' conquests and "
    "powers, even in decline.",
}

POWER_SUMMARIES: dict[str, str] = {
    "Alchemist": "Two extra coins at the end of every turn until the race goes into decline.",
    "Berserk": "Roll the reinforcement die before each conquest and pay that many tokens "
    "less (never less than one); a conquest that still falls short ends the turn.",
    "Bivouacking": "Five Encampments, set out and moved at redeployment, each add one to "
    "their region's defence; attacks never remove them, decline does.",
    "Commando": "Every conquest costs one token less (never less than one).",
    "Diplomat": "At the end of the turn, pick an opponent you left in peace this turn (no "
    "attack on their active race); they may not attack your active race before your next "
    "turn.",
    "Dragon Master": "Once per turn, take a region with one token whatever defends it and "
    "put the Dragon there; it is immune until the Dragon moves. The Dragon leaves on "
    "decline.",
    "Flying": "Any land region on the board may be conquered, adjacent or not.",
    "Forest": "Every Forest region held earns one extra coin at the end of the turn.",
    "Fortified": "Once per turn, build a Fortress (one per region, six on the board) that "
    "adds one defence and, while the race is active, one coin at the end of the turn.",
    "Heroic": "At the end of the turn two Heroes guard two of your regions, which are "
    "immune until the Heroes move; they leave on decline.",
    "Hill": "Every Hill region held earns one extra coin at the end of the turn.",
    "Merchant": "Every region held earns one extra coin at the end of the turn.",
    "Mounted": "Hill and Farmland regions cost one token less to conquer (never less than one).",
    "Pillaging": "Every non-empty region conquered this turn earns one extra coin.",
    "Seafaring": "Seas and lakes may be conquered as if empty, and they stay yours and "
    "keep scoring after decline.",
    "Spirit": "In decline this race does not count toward the one-declined-race limit, so "
    "it stays on the board beside a later declined race.",
    "Stout": "The race can decline straight after scoring a turn it spent conquering, "
    "instead of giving up a whole turn to it.",
    "Swamp": "Every Swamp region held earns one extra coin at the end of the turn.",
    "Underworld": "Cavern regions cost one token less to conquer, and all Caverns count as "
    "neighbours of each other for your conquests.",
    "Wealthy": "Seven extra coins, once, at the end of the first turn with this combo.",
    "Cursed": "No power at all; a player passing over this combo pays three coins onto it "
    "instead of one.",
    "Hordes of": "Two Hordes tokens fight and hold regions like extra tokens of the race; "
    "they vanish on decline.",
    "Marauding": "When the conquests are done, and before any final die roll, pick the "
    "troops back up (one stays per region) and run a second round of conquests.",
    "Ransacking": "Each conquest of a region holding an opponent's active tokens makes "
    "that opponent pay you one coin, if they have any; declined Ghouls are exempt.",
    "Were-": "On even-numbered turns (night) every conquest costs two tokens less (never "
    "less than one); on odd turns the power sleeps.",
    "Historian": "One coin per race already in decline when the combo is taken; while "
    "active, a coin whenever another race declines, and a last one when this race does.",
    "Peace-Loving": "Three extra coins after every turn in which no other active race was "
    "attacked (declined Ghouls do not count).",
    "Barricade": "Three extra coins at the end of a turn in which the race holds four "
    "regions or fewer.",
    "Catapult": "Once per turn, from the Catapult's region, conquer a region one step "
    "beyond a neighbour (over the lake, never a sea) for one token less; the Catapult's "
    "region is immune, and it leaves on decline.",
    "Corrupt": "Whenever an opponent conquers one of your active regions, they pay you one coin.",
    "Imperial": "One extra coin for each region held beyond the third at the end of the turn.",
    "Mercenary": "Spend one coin on a conquest to need two tokens less (never less than "
    "one); on the final attempt you may decide after the die roll.",
    "Aquatic": "Each coastal region held earns one extra coin and each inland one earns "
    "one coin less.",
    "Behemoth": "Two Behemoth stacks, each as tall as the number of Swamp regions held, "
    "attack and defend as that many tokens; each must be escorted by a race token.",
    "Fireball": "At redeployment gain a Fireball per Magic Source held; on a later turn "
    "each counts as two tokens in an attack and is then spent.",
}

FILE_NOTES = {
    "races": [
        "tokens: the number on the banner; max_tokens: race tokens in the box (null: "
        "unknown); conquest_only_tokens: extra tokens that attack but never defend.",
        "Expansion numbers marked medium or low rest on few sources; correct them here.",
        "Gypsies are reportedly renamed Nomads in later printings (unconfirmed).",
        "Fauns max_tokens 18: from the cited fan wiki and a BoardGameGeek thread.",
    ],
    "powers": [
        "tokens: the number on the badge.",
        "Ransacking: sources disagree (4 or 3); 4 kept. Cursed: 0 rests on one source.",
        "Hordes of: the badge gives 5 tokens; the 2 Hordes tokens are separate pieces.",
    ],
}


def _load(reference: Path, name: str) -> Any:
    return json.loads((reference / name).read_text(encoding="utf-8"))


def _expansion_id(reference_name: str) -> str:
    for ident, _display, ref_name in EXPANSIONS:
        if ref_name == reference_name:
            return ident
    raise SystemExit(f"unknown expansion in the reference: {reference_name!r}")


def _confidence(text: str) -> str:
    word = text.split()[0]
    if word not in ("high", "medium", "low"):
        raise SystemExit(f"unknown confidence in the reference: {text!r}")
    return word


# The reference leaves these null although its own cited sources give the number
# (Fauns: "There are 18 Faun tokens in the box", fan wiki and a BoardGameGeek thread).
MAX_TOKENS_FROM_CITED_SOURCES = {"Fauns": 18}


def _race(entry: dict[str, Any]) -> dict[str, Any]:
    max_tokens = entry["max_tokens"]
    if max_tokens is None:
        max_tokens = MAX_TOKENS_FROM_CITED_SOURCES.get(entry["name"])
    return {
        "name": entry["name"],
        "tokens": entry["tokens"],
        "max_tokens": max_tokens,
        "expansion": _expansion_id(entry["expansion"]),
        "conquest_only_tokens": entry.get("conquest_only_bonus_tokens", 0),
        "confidence": _confidence(entry["confidence"]),
        "summary": RACE_SUMMARIES[entry["name"]],
    }


def _power(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": entry["name"],
        "tokens": entry["tokens"],
        "expansion": _expansion_id(entry["expansion"]),
        "confidence": _confidence(entry["confidence"]),
        "summary": POWER_SUMMARIES[entry["name"]],
    }


def _components(reference: Path) -> dict[str, Any]:
    ref = _load(reference, "components.json")
    coins = ref["victory_coins"]
    box = ref["base_box_pieces"]
    river = ref["river_world"]
    events = {
        f"{name.lower().replace(' ', '_')}_events": count
        for name, count in river["event_markers"].items()
    }
    return {
        "schema": 1,
        "expansions": [{"id": i, "name": n} for i, n, _ in EXPANSIONS],
        "die_faces": ref["reinforcement_die"]["faces"],
        "coins": coins["denominations"],
        "starting_coins": {
            "value": coins["starting_coins_per_player"]["value_each"],
            "count": coins["starting_coins_per_player"]["count"],
        },
        "turns_by_players": ref["turns_by_map"],
        "pieces": {k: v for k, v in box.items() if k not in ("sources", "confidence")},
        "river_world_pieces": {
            "maps": river["maps"],
            **events,
            "pirate_ships": river["pirate_ships"],
            "caravel": river["caravel"],
        },
    }


def _board(reference: Path, players: int) -> dict[str, Any]:
    ref = _load(reference, f"map-{players}p.json")
    layout = _load(reference, f"layout-{players}p.json")
    regions = [
        {
            "id": r["id"],
            "terrain": r["terrain"],
            "features": r["features"],
            "lost_tribe": r["lost_tribe"],
            "border": r["border"],
            "entry": r["entry"],
            "coastal": r["coastal"],
            "adjacent": sorted(r["adjacent"]),
            "position": layout["regions"][str(r["id"])],
        }
        for r in ref["regions"]
    ]
    return {
        "schema": 1,
        "name": f"{players}p",
        "players": players,
        "turns": ref["turns"],
        "aspect": layout["aspect"],
        "notes": [
            f"Base-game {players}-player board. position: a point inside each region, 0..1 "
            f"of the board's width and height ({layout['confidence']} confidence)."
        ],
        "regions": regions,
    }


def _dump(value: Any, path: Path, one_line_items: str) -> None:
    """JSON with each item of the list `one_line_items` on one line, for readable diffs."""
    items = value[one_line_items]
    head = {k: v for k, v in value.items() if k != one_line_items}
    lines = [f" {json.dumps(k)}: {_compact(v, ' ')}," for k, v in head.items()]
    body = ",\n".join(f"  {json.dumps(item, ensure_ascii=False)}" for item in items)
    text = "{\n" + "\n".join(lines) + f'\n "{one_line_items}": [\n{body}\n ]\n}}\n'
    json.loads(text)  # stays valid JSON
    path.write_text(text, encoding="utf-8")


def _compact(value: Any, indent: str = "") -> str:
    """JSON, one line per value when it fits in 90 characters, else one line per item."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(indent) + len(flat) <= 90 or not isinstance(value, dict | list):
        return flat
    inner = indent + " "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {_compact(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    items = [f"{inner}{_compact(v, inner)}" for v in value]
    return "[\n" + ",\n".join(items) + f"\n{indent}]"


def main(argv: list[str]) -> int:
    reference = Path(argv[1]) if len(argv) > 1 else DEFAULT_REFERENCE
    races = [_race(r) for r in _load(reference, "races.json")["races"]]
    powers = [_power(p) for p in _load(reference, "powers.json")["powers"]]
    _dump({"schema": 1, "notes": FILE_NOTES["races"], "races": races}, DATA / "races.json", "races")
    _dump(
        {"schema": 1, "notes": FILE_NOTES["powers"], "powers": powers},
        DATA / "powers.json",
        "powers",
    )
    (DATA / "components.json").write_text(_compact(_components(reference)) + "\n", encoding="utf-8")
    (DATA / "boards").mkdir(exist_ok=True)
    for players in (2, 3, 4, 5):
        _dump(_board(reference, players), DATA / "boards" / f"{players}p.json", "regions")
    print(f"wrote {len(races)} races, {len(powers)} powers, components and 4 boards")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
