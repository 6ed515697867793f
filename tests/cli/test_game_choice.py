"""Choosing the game: ``toprace-pi games``, ``--game``, ``[game] name`` and the
journal's header, which names the game and the version of its rules."""

from __future__ import annotations

import json

import pytest

from toprace_pi.cli import main
from toprace_pi.core import registry
from toprace_pi.errors import DataError
from toprace_pi.games.toprace.rules import Settings
from toprace_pi.table.config import parse_config
from toprace_pi.table.journal import Journal, _line, journal_game, load


def test_games_lists_each_game_with_its_players_nature_and_variants(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "toprace    Top Race: 2-6 players; chance, secrets; rules version 1" in out
    assert "variants: base, tips, quick, pitstop" in out


def test_a_journal_names_its_game_and_the_version_of_its_rules(tmp_path):
    path = tmp_path / "j.jsonl"
    Journal.create(path, Settings(("Anna", "Ben"))).close()
    header = json.loads(path.read_text().splitlines()[0])
    assert header["game"] == {"name": "toprace", "version": 1} and journal_game(path) == "toprace"
    assert load(path).settings.players == ("Anna", "Ben")


def header_says(tmp_path, game: object):
    path = tmp_path / "j.jsonl"
    Journal.create(path, Settings(("Anna", "Ben"))).close()
    header = json.loads(path.read_text().splitlines()[0])
    header.pop("crc")
    if game is None:
        header.pop("game")
    else:
        header["game"] = game
    path.write_bytes(_line(header)[0])
    return path


def test_a_journal_from_before_the_header_named_its_game_is_top_races(tmp_path):
    path = header_says(tmp_path, None)
    assert journal_game(path) == "toprace" and load(path).settings.players == ("Anna", "Ben")


@pytest.mark.parametrize(("game", "why"), [({"name": "chess", "version": 1}, "a journal of the game 'chess'"),
                                           ({"name": "toprace", "version": 9}, "version 9 of Top Race's rules"),
                                           ("toprace", "the header's game is not valid")])
def test_a_journal_of_another_game_or_rules_version_is_refused_by_name(tmp_path, game, why):
    with pytest.raises(DataError, match=why):
        load(header_says(tmp_path, game))


def test_replay_of_another_games_journal_says_so_in_one_line(tmp_path, capsys):
    path = header_says(tmp_path, {"name": "chess", "version": 1})
    assert main(["replay", str(path), "--fast"]) == 2
    err = capsys.readouterr().err
    assert "no game called 'chess'" in err and "Traceback" not in err


def test_the_config_names_the_game_and_refuses_an_unknown_one():
    assert parse_config({}, "t").game == "toprace"
    assert parse_config({"game": {"name": "toprace"}}, "t").game == "toprace"
    games = ", ".join(registry.game_names())
    with pytest.raises(DataError, match=rf"\[game\] name: one of the games \({games}\), not 'chess'"):
        parse_config({"game": {"name": "chess"}}, "t")


def test_game_is_an_option_of_the_commands_that_play(capsys):
    assert main(["simulate", "--game", "toprace", "--players", "2", "--seed", "1"]) == 0
    with pytest.raises(SystemExit) as refused:
        main(["simulate", "--game", "chess"])
    assert refused.value.code == 2
    assert "invalid choice: 'chess'" in capsys.readouterr().err
