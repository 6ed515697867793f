"""Seats the table plays itself (``[bots] seats``): whole games of the live table with bot seats,
each choice journalled as the bot's; bad ``[bots]`` sections named in full."""

from __future__ import annotations

import json
import time

import pytest

from toprace_pi.errors import DataError
from toprace_pi.table.config import parse_config
from toprace_pi.table.live import open_table


def bot_table_config(tmp_path, game: str, players: list[str], seats: list[str]) -> dict:
    return {"game": {"name": game, "players": players},
            "files": {"journal": str(tmp_path / "journal.jsonl"), "registry": str(tmp_path / "tags.json")},
            "buttons": {"kind": "simulated"}, "sound": {"speech": False},
            "bots": {"seats": seats, "strength": "easy"}}


@pytest.mark.parametrize("game", ["autorace", "topspeed"])
def test_a_table_of_bot_seats_plays_a_whole_game_by_itself(espeak_on_path, tmp_path, pins, game):
    """Every seat a bot: the table steps at its own pace (a tick every 10 ms) while the bots think in
    their threads, and the game comes to its end with every step in the journal as the bots'."""
    players = ["Anna", "Ben"]
    config = parse_config(bot_table_config(tmp_path, game, players, players), "test")
    live = open_table(config, new=True)
    try:
        controller = live.table.controller
        deadline = time.monotonic() + 300
        while not controller.game.is_over and time.monotonic() < deadline:
            live.table.step()
            time.sleep(0.01)
        assert controller.game.is_over, f"{game}: the bot seats did not finish in 5 minutes"
        ended = controller.game
    finally:
        live.close()
    records = [json.loads(line) for line in (tmp_path / "journal.jsonl").read_text().splitlines()]
    by = {r["by"] for r in records if "by" in r}
    assert {"the table's bot of seat 1", "the table's bot of seat 2"} <= by
    assert ended.winners()


def test_one_bot_seat_waits_for_the_people(espeak_on_path, tmp_path, pins):
    """A bot seat beside a person's: the bot lays its card, the round waits for the person's."""
    config = parse_config(bot_table_config(tmp_path, "autorace", ["Anna", "Ben"], ["Ben"]), "test")
    live = open_table(config, new=True)
    try:
        game = live.table.controller.game
        for _ in range(300):
            live.table.step()
            if game.sealed[1] is not None:
                break
            time.sleep(0.01)
        assert game.sealed[1] is not None and game.sealed[0] is None and game.round == 1
    finally:
        live.close()


@pytest.mark.parametrize("section, message", [
    ({"seats": ["Zoe"]}, "[bots] seats: players' names of [game] players"),
    ({"seats": ["Anna", "Anna"]}, "each once"),
    ({"strength": "genius"}, "[bots] strength: one of easy, normal, strong, not 'genius'"),
    ({"level": 3}, "[bots] unknown key(s): level"),
])
def test_a_bad_bots_section_is_named(tmp_path, section, message):
    data = {"game": {"name": "autorace", "players": ["Anna", "Ben"]}, "bots": section}
    with pytest.raises(DataError) as error:
        parse_config(data, "table.toml")
    assert message in str(error.value)


def test_top_race_refuses_bot_seats_and_says_why(tmp_path):
    with pytest.raises(DataError) as error:
        parse_config({"game": {"players": ["Anna", "Ben", "Carla"]}, "bots": {"seats": ["Carla"]}}, "table.toml")
    assert "Top Race cannot seat bots at this table: its speed cards are dealt by hand" in str(error.value)


def test_top_speed_with_physical_decks_refuses_bot_seats(tmp_path):
    data = {"game": {"name": "topspeed", "players": ["Anna", "Ben"], "decks": "physical"}, "bots": {"seats": ["Ben"]}}
    with pytest.raises(DataError) as error:
        parse_config(data, "table.toml")
    assert "TOP SPEED cannot seat bots at this table: with [game] decks = \"physical\"" in str(error.value)
