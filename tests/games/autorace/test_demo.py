"""Whole AUTORACE series at the demo table at human pace, their journals resumed and replayed, and
the secrets of the sealed choice kept at every step: no seat's view, no LED frame, nothing said
or printed holds a card before its reveal; only the journal does (the table's own file)."""

from __future__ import annotations

import io
import json
import re
import stat

import pytest
from pace import Hearing, listen, play_at_pace
from support.autorace import cut_mid_round

from toprace_pi.games.autorace.rules import BANNER, Phase, Reveal
from toprace_pi.games.autorace.table.demo import DemoPlayers, build_demo_table, card_uid, run_demo
from toprace_pi.games.autorace.table.replay import AutoraceReplay
from toprace_pi.render.ansi import ColourMode
from toprace_pi.table.config import parse_config
from toprace_pi.table.journal import load
from toprace_pi.table.live import open_game, open_table
from toprace_pi.table.replay import replay_journal
from toprace_pi.table.screen import DemoScreen

#: While the players listen to a round's news, the table loop runs at this pace (seconds).
LISTENING = 0.1


def state(game) -> tuple[str, list]:
    """All of a game, its sealed cards too (the snapshot leaves them out)."""
    return json.dumps(game.to_dict(), sort_keys=True), list(game.sealed)


def another_card(game, seat: int) -> int:
    """A card other than ``seat``'s sealed one, that it could have chosen instead."""
    return next(card for card in (*game.playable(seat), BANNER) if card != game.sealed[seat])


def with_other_sealed_cards(game, keep: int):
    """A copy of ``game`` in which every seat but ``keep`` that has chosen chose another card."""
    trial = game.clone()
    for seat, card in enumerate(game.sealed):
        if seat != keep and card is not None and (game.playable(seat) or card != BANNER):
            trial.sealed[seat] = another_card(game, seat)
    return trial


def assert_the_secrets_are_kept(demo) -> None:
    """Whatever the others chose, a seat sees the same, and the strip shows the same."""
    game, view = demo.controller.game, demo.table.view
    now = demo.table.clock()
    frame = view.frame(game, None, now)
    assert demo.strip.last == frame
    for seat in range(len(game.names)):
        trial = with_other_sealed_cards(game, seat)
        assert trial.view(seat) == game.view(seat), f"seat {seat}'s view tells another's sealed card"
        assert game.view(seat)["my_sealed"] == game.sealed[seat]
        assert [c for s, c in enumerate(game.seen_by(seat).sealed) if s != seat] == [None] * (len(game.names) - 1)
        assert view.frame(trial, None, now) == frame, "the LEDs show a sealed card"


def play_series(players: int, seed: int, *, games: int = 1, boost: int = 0, journal=None):
    """A whole series at human pace: a card every :data:`PACE` seconds, and after each reveal the
    players hear the round out while they move their figures (a round's news takes longer to say
    than its cards take to lay: 10 to 17 seconds of speech against 4.5 to 7.5 of laying)."""
    hearing = Hearing()
    demo = build_demo_table(players, games=games, boost=boost, say=hearing.say, ask=hearing.ask,
                            clock=hearing.clock, journal=journal)
    bots = DemoPlayers(["random"] * players, seed)

    def act(demo) -> None:
        reveals = demo.controller.game.log.count(Reveal())
        bots.act(demo)
        if demo.controller.game.log.count(Reveal()) > reveals:
            listen(demo, hearing, tick=LISTENING)

    try:
        play_at_pace(demo, hearing, act, check=assert_the_secrets_are_kept)
    finally:
        hearing.close()
        demo.close()
    return demo.controller, hearing


@pytest.mark.parametrize(("players", "seed", "games", "boost"), [(4, 1, 1, 0), (5, 2, 2, 32), (2, 3, 3, 0)])
def test_bots_play_whole_series_at_human_pace_and_every_reveal_is_heard(espeak_on_path, players, seed, games,
                                                                        boost):
    controller, hearing = play_series(players, seed, games=games, boost=boost)
    game = controller.game
    assert game.is_over and controller.refusals == 0 and len(game.results) >= 1
    assert [text for text in hearing.heard if text not in set(hearing.prompts)] == hearing.news
    reveals = [text for text in hearing.news if text.startswith("Revealed: ")]
    assert len(reveals) == sum(str(a) == "reveal" for a in game.log) and reveals
    assert hearing.news[-1].endswith(("wins with $" + str(max(game.money)), f"${max(game.money)}"))
    assert state(game.replayed(game.log)) == state(game)


#: What may be said while the cards are being chosen: who is to choose, who has chosen (or changed
#: their mind), who sits the round out, who has nothing but the banner (the rules' own, public).
WHILE_CHOOSING = re.compile(r"round \d+: .*, lay your chosen card face down on the reader|Game \d+, round \d+: "
                            r"choose your cards|\w+ (has chosen|takes the card back|misses this round|can only play "
                            r"the banner)")


def assert_nothing_before_a_reveal_tells_a_card(lines: list[str]) -> None:
    """From a round's start to its reveal, only the sentences of :data:`WHILE_CHOOSING`."""
    choosing = False
    for line in lines:
        if line.startswith("Revealed: "):
            choosing = False
        elif re.match(r"(round 1|Game \d+, round 1)\b", line) or "round " in line and "choose" in line:
            choosing = True
        if choosing:
            assert WHILE_CHOOSING.fullmatch(line), f"said while the cards are chosen: {line!r}"


def test_nothing_said_before_a_reveal_tells_a_card(espeak_on_path):
    controller, hearing = play_series(3, 5, games=2)
    assert_nothing_before_a_reveal_tells_a_card(hearing.said)
    assert sum("has chosen" in line for line in hearing.said) >= controller.game.round


def test_the_demo_writes_a_private_journal_that_replays_to_the_same_game(espeak_on_path, tmp_path):
    path = tmp_path / "journal.jsonl"
    controller, _ = play_series(3, 7, games=2, journal=path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    out: list[str] = []
    replayed = replay_journal(path, AutoraceReplay(colour=False), pause=0, out=out.append)
    assert state(replayed) == state(controller.game)
    assert replay_journal(path, AutoraceReplay(), narrate=False, out=out.append).log == controller.game.log
    told = [line for line in out[:-1] if "\n" not in line]  # the events' sentences (the boards are drawings)
    assert told == [event.text(replayed.names) for event in replayed.events]
    assert_nothing_before_a_reveal_tells_a_card(told)
    assert out[-1] == f"{path}: {len(controller.game.log)} steps; the series is over"


def test_a_game_cut_mid_round_resumes_from_its_journal_with_the_cards_sealed(espeak_on_path, tmp_path):
    path = tmp_path / "journal.jsonl"
    controller = cut_mid_round(path, 11, rounds=3)
    cut = controller.game
    assert cut.phase is Phase.CHOOSE and 2 <= sum(c is not None for c in cut.sealed) < 4
    config = parse_config({"game": {"name": "autorace"}, "files": {"journal": str(path)}}, "test")
    said: list[str] = []
    game, journal, inputs = open_game(config, said.append)
    journal.close()
    assert state(game) == state(cut) and inputs == controller.inputs - 1  # the last card laid (then lifted)
    assert said == [f"resumed the game from {path} after {len(cut.log)} steps"]


def test_a_record_torn_by_the_power_cut_is_dropped_and_the_rest_resumes(espeak_on_path, tmp_path):
    path = tmp_path / "journal.jsonl"
    cut = cut_mid_round(path, 12, rounds=2).game
    whole = path.read_bytes()
    path.write_bytes(whole[: whole.rindex(b"\n", 0, len(whole) - 1) + 1 + 9])  # the last record cut short
    loaded = load(path)
    assert loaded.torn and loaded.steps == cut.log[:-1]


def test_the_live_table_resumes_an_autorace_journal_and_plays_on(espeak_on_path, tmp_path, pins):
    """``toprace-pi play`` with ``[game] name = "autorace"``: the game from the journal, its LEDs, its
    tags; a card laid on the configured (simulated) seats reader goes on with the round."""
    path = tmp_path / "journal.jsonl"
    cut = cut_mid_round(path, 13, rounds=1).game
    config = parse_config({"game": {"name": "autorace"}, "files": {"journal": str(path),
                           "registry": str(tmp_path / "tags.json")}, "buttons": {"kind": "simulated"},
                           "sound": {"speech": False}}, "test")
    live = open_table(config)
    try:
        controller = live.table.controller
        assert state(controller.game) == state(cut)
        seat = next(s for s, card in enumerate(cut.sealed) if card is None)
        reader = live.table.readers[0].opener()
        reader.lay(card_uid(seat, BANNER), f"toprace card {cut.board.suits[seat].id} banner")
        live.table.step()
        assert controller.game.sealed[seat] == BANNER and len(controller.game.log) == len(cut.log) + 1
        assert len(live.table.strip.last) == 73
    finally:
        live.close()


class RecordingScreen(DemoScreen):
    """The demo's screen, piped, keeping the news in order."""

    def __init__(self, write) -> None:
        super().__init__(write, live=False, size=lambda: (100, 40))
        self.lines: list[str] = []

    def news(self, line: str) -> None:
        self.lines.append(line)
        super().news(line)


def test_run_demo_tells_the_series_and_draws_the_board_without_a_sealed_card(tmp_path):
    written = io.StringIO()
    screen = RecordingScreen(written.write)
    journal = tmp_path / "demo.jsonl"
    game = run_demo(players=3, games=1, seed=4, bots="random", delay=0.0, colour=ColourMode.NONE, journal=journal,
                    screen=screen)
    text = written.getvalue()
    assert game.is_over and text.count("space 0") >= game.round
    assert "Revealed: " in text and text.rstrip().endswith(f"(toprace-pi replay --game autorace {journal})")
    assert "Final money: " in text and journal.exists()
    assert_nothing_before_a_reveal_tells_a_card(screen.lines[1:])


def test_each_bot_decides_on_its_own_seats_view_alone(monkeypatch):
    """The demo hands a bot its seat's view (plain values), never the game: it cannot peek."""
    seen: list[dict] = []

    class Spy:
        def __init__(self, seed: int) -> None:
            self.seed = seed

        def choose(self, view: dict) -> int:
            seen.append(view)
            return view["my_options"][self.seed % len(view["my_options"])]

    monkeypatch.setattr("toprace_pi.games.autorace.table.demo.make_bot", lambda kind, seed, strength=None: Spy(seed))
    demo = build_demo_table(3, say=lambda _: None)
    try:
        bots = DemoPlayers(["spy"] * 3, 1)
        while not demo.controller.game.is_over:
            bots.act(demo)
    finally:
        demo.close()
    assert seen and all(type(view) is dict and view["my_sealed"] is None and "sealed" not in view for view in seen)
    json.dumps(seen)  # plain values through and through
