"""TOP SPEED at the table: its variants in the registry, the ``[game]`` section, the journal's
settings, and the random bot."""

from __future__ import annotations

import json
import random

import pytest

from toprace_pi.core import registry
from toprace_pi.errors import DataError, SettingsError
from toprace_pi.games.topspeed.bots import BOT_KINDS, make_bot
from toprace_pi.games.topspeed.records import READERS, game_for, settings_from_dict, settings_to_dict
from toprace_pi.games.topspeed.report import text_report
from toprace_pi.games.topspeed.rules import Settings, TopSpeed
from toprace_pi.games.topspeed.settings import variant_fields, variant_name

ENTRY = registry.get("topspeed")


def section(**keys):
    problems: list[str] = []
    setup = ENTRY.records.parse_section(keys, problems)
    return setup, problems


def test_topspeed_is_registered_with_its_variants_each_accepted_by_the_game_section():
    assert "topspeed" in registry.game_names() and ENTRY.info.title == "TOP SPEED"
    assert ENTRY.info.min_players == 2 and ENTRY.info.max_players == 8 and ENTRY.info.chance
    for variant in ENTRY.variants():
        setup, problems = section(variant=variant)
        settings, game = setup.new_game()
        assert problems == [] and isinstance(game, TopSpeed) and variant_name(settings) == variant
    assert READERS == ENTRY.records.READERS and "seats" in READERS


def test_base_is_the_normal_race_and_any_combination_of_rules_is_a_variant():
    assert section(variant="base")[0].settings() == section()[0].settings()
    assert variant_fields("wet+kers+qualifying") == {"race": "wet", "kers": True, "qualifying": True}
    assert variant_name(section(variant="normal+chaotic-weather")[0].settings()) == "normal+chaotic-weather"
    with pytest.raises(SettingsError, match="not 'normal\\+turbo'"):
        variant_fields("normal+turbo")


def test_the_game_section_names_each_problem_and_keeps_a_safe_default():
    setup, problems = section(variant="rainy", laps=1, players=["Anna"], circuit="monza", extra=1)
    default = section()[0]
    assert (setup.players, setup.variant, setup.circuit) == (default.players, "normal", "montmelo")
    assert [p.split(":")[0] for p in problems] == ["[game] unknown key(s)", "[game] players", "[game] variant",
                                                   "[game] laps", "[game] circuit"]


def test_a_custom_race_names_the_cards_it_takes_out_of_every_deck():
    setup, problems = section(variant="custom", removed=["safety_car", "safety_car", "4"])
    assert problems == [] and setup.new_game()[1].deck_size == 68  # the blank out too
    _, problems = section(variant="custom", removed=["safety_car"] * 3)
    assert problems == ["[game] the custom race takes out a Safety Car, but the deck has no more of them"]
    _, problems = section(variant="normal", removed=["4"])
    assert problems == ["[game] only a custom race names the cards it takes out of the decks"]
    _, problems = section(variant="custom", removed=["nitro"])
    assert problems[0].startswith("[game] removed: no card 'nitro'")


def test_the_blank_card_as_an_extra_card_is_a_key_of_the_game_section_each_bad_value_named():
    setup, problems = section(variant="custom", removed=["safety_car", "safety_car"], blank="safety_car")
    game = setup.new_game()[1]
    assert problems == [] and setup.blank == "safety_car" and game.settings.blank_as == "safety_car"
    assert game.deck_size == 70 and game.composition["safety_car"] == 1 and "blank" not in game.composition
    assert section(blank=3)[1] == ["[game] blank: the word of the card the blank card plays as, not 3"]
    assert section(blank="nitro")[1][0].startswith("[game] blank: no card 'nitro': a movement card 1 to 9")
    assert section(blank="blank")[1] == ["[game] blank: the blank card plays as another card, not as a blank"]
    setup, problems = section(variant="normal+chaotic-weather", blank="2")
    assert problems == ["[game] the blank card is either chaotic weather or a card, not both"]
    assert (setup.variant, setup.blank) == ("normal", "")  # the safe default: a normal race, no extra card
    setup, problems = section(blank="3", blank_replaces=True)
    game = setup.new_game()[1]
    assert problems == [] and game.deck_size == 68  # in place of a lost 3: no card more
    assert text_report(game).splitlines()[0].endswith("the blank card standing in for a 3 (lost or damaged)")
    assert section(blank_replaces="yes")[1] == ["[game] blank_replaces: true or false, not 'yes'"]
    assert section(blank_replaces=True)[1] == [
        "[game] the blank card replaces a lost card only when that card is named"]


def test_the_journals_settings_read_back_and_each_problem_is_named():
    settings = Settings(("Anna", "Ben"), laps=66, race="custom", removed=("2",), kers=True)
    fields = json.loads(json.dumps(settings_to_dict(settings)))  # as a journal holds them
    assert settings_from_dict(fields, "j") == settings and game_for(settings, "j").deck_size == 70
    with pytest.raises(DataError) as caught:
        settings_from_dict({**fields, "laps": "66", "kers": 1, "colour": "red"}, "j")
    assert len(caught.value.problems) == 3
    with pytest.raises(DataError, match="not valid: a race has 2 to 200 laps"):
        settings_from_dict({**fields, "laps": 1}, "j")
    with pytest.raises(DataError, match="cannot be loaded"):
        game_for(Settings(("Anna", "Ben"), deck="/no/such/deck.toml"), "j")
    with pytest.raises(DataError, match="for 2 to 8 players"):
        game_for(Settings(tuple("ABCDEFGHI")), "j")
    with pytest.raises(DataError, match="not valid: the custom race takes out a Safety Car, but the deck has no more"):
        game_for(Settings(("Anna", "Ben"), race="custom", removed=("safety_car",) * 3), "j")
    extra = Settings(("Anna", "Ben"), race="wet", blank_as="2")
    assert settings_from_dict(json.loads(json.dumps(settings_to_dict(extra))), "j") == extra
    assert game_for(extra, "j").deck_size == 72
    with pytest.raises(DataError, match="'blank_as' must be a str"):
        settings_from_dict({**fields, "blank_as": 2}, "j")
    with pytest.raises(DataError, match="not valid: the card the blank card plays as: no card 'turbo'"):
        settings_from_dict({**fields, "blank_as": "turbo"}, "j")


def test_the_random_bot_picks_one_of_its_seats_options_from_the_view_alone():
    game = section(variant="normal+kers")[0].new_game()[1]
    bot = make_bot("random", 3)
    while game.decision.chance:
        game.apply(game.chance_outcomes().sample(random.Random(1)))
    seat = game.decision.seats[0]
    assert str(bot.choose(game.view(seat))) in game.view(seat)["my_options"]
    assert BOT_KINDS == ("random", "sensible", "search")
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("clever", 1)


def test_the_settings_refuse_what_the_rules_do_not_allow():
    with pytest.raises(SettingsError, match="different names"):
        Settings(("Anna", "Anna"))
    with pytest.raises(SettingsError, match="either chaotic weather or a card, not both"):
        Settings(("Anna", "Ben"), blank_card=True, blank_as="safety_car")
    with pytest.raises(SettingsError, match="replaces a lost card only when that card is named"):
        Settings(("Anna", "Ben"), blank_replaces=True)
    with pytest.raises(SettingsError, match="race type is one of normal, wet, custom"):
        Settings(("Anna", "Ben"), race="dry")
