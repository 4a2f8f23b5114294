"""Player profiles (name, colour, PIN kept only as a salted hash) and settings."""

from __future__ import annotations

import pytest
from factories import session

from companion.store import ProfileError, Store
from companion.store.profiles import hash_pin, pin_matches


def test_a_profile_has_a_name_a_colour_and_maybe_a_pin(store: Store) -> None:
    ann = store.add_profile("  Ann ", "blue", pin="1234")
    bob = store.add_profile("Bob", "orange")
    assert (ann.name, ann.colour, ann.has_pin) == ("Ann", "blue", True)
    assert (bob.name, bob.has_pin) == ("Bob", False)
    assert [p.name for p in store.profiles()] == ["Ann", "Bob"]


def test_the_pin_is_stored_only_as_a_salted_hash(store: Store) -> None:
    ann = store.add_profile("Ann", "blue", pin="1234")
    (stored,) = store.conn.execute("SELECT pin FROM players WHERE id = ?", (ann.id,)).fetchone()
    assert "1234" not in stored and stored.startswith("scrypt$")
    assert hash_pin("1234") != hash_pin("1234")  # salted: never the same twice
    assert store.check_pin(ann.id, "1234")
    assert not store.check_pin(ann.id, "4321")
    assert not pin_matches("1234", "not a hash")


def test_a_pin_can_be_changed_or_removed(store: Store) -> None:
    ann = store.add_profile("Ann", "blue", pin="1234")
    store.set_pin(ann.id, "98765")
    assert store.check_pin(ann.id, "98765") and not store.check_pin(ann.id, "1234")
    store.set_pin(ann.id, None)
    assert not store.profile(ann.id).has_pin
    assert store.check_pin(ann.id, "")  # no PIN: the total opens without one


@pytest.mark.parametrize("pin", ["123", "123456789", "12a4", "١٢٣٤", ""])
def test_a_pin_is_four_to_eight_digits(store: Store, pin: str) -> None:
    with pytest.raises(ProfileError, match="a PIN is 4 to 8 digits"):
        store.add_profile("Ann", "blue", pin=pin)
    assert store.profiles() == []


def test_two_players_cannot_share_a_name_whatever_its_case(store: Store) -> None:
    store.add_profile("Ann", "blue")
    with pytest.raises(ProfileError, match="already a player called ANN"):
        store.add_profile("ANN", "green")
    bob = store.add_profile("Bob", "orange")
    with pytest.raises(ProfileError, match="already a player called ann"):
        store.update_profile(bob.id, name="ann")
    assert store.update_profile(bob.id, name="Robert", colour="red").name == "Robert"
    with pytest.raises(ProfileError, match="needs a name"):
        store.add_profile("   ", "green")


def test_removing_a_profile_keeps_the_games_it_played(store: Store) -> None:
    ann = store.add_profile("Ann", "blue")
    s = session(2)
    assert s.history is not None
    game_id = store.new_game(s.history.log[0])
    assert store.game(game_id).seats[0].player_id == ann.id
    store.remove_profile(ann.id)
    seat = store.game(game_id).seats[0]
    assert (seat.name, seat.player_id) == ("Ann", None)


def test_seats_can_be_linked_to_profiles_explicitly(store: Store) -> None:
    cy = store.add_profile("Cyril", "green")
    s = session(2)
    assert s.history is not None
    game_id = store.new_game(s.history.log[0], players={1: cy.id})  # Bob plays as Cyril
    assert [seat.player_id for seat in store.game(game_id).seats] == [None, cy.id]


def test_settings_keep_any_json_value(store: Store) -> None:
    assert store.setting("backups.keep", 5) == 5
    store.set_setting("backups.keep", 8)
    store.set_setting("screen", {"rotation": 180, "brightness": 0.8})
    store.set_setting("expansions", ("base", "cursed"))
    assert store.setting("backups.keep", 5) == 8
    assert store.settings() == {
        "backups.keep": 8,
        "expansions": ["base", "cursed"],
        "screen": {"brightness": 0.8, "rotation": 180},
    }
    store.delete_setting("backups.keep")
    assert store.setting("backups.keep", 5) == 5


def test_a_setting_json_cannot_hold_is_refused_and_nothing_written(store: Store) -> None:
    with pytest.raises(ValueError, match="setting 'when' cannot be saved"):
        store.set_setting("when", object())
    with pytest.raises(ValueError, match="cannot be saved"):
        store.set_setting("ratio", float("nan"))
    assert store.settings() == {}
