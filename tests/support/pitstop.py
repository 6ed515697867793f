"""The Pit Stop rule's deals, observer and refusal probes, shared by its tests and those of Pit Stop with Stocks."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from scenarios import DECK

from support.properties import (
    Observer,
    illegal_actions,
    state,
)
from toprace_pi.errors import IllegalActionError
from toprace_pi.games.toprace.rules import Pass, Phase, PlayCard, TopRace
from toprace_pi.games.toprace.rules.actions import Action, Deal
from toprace_pi.games.toprace.rules.events import (
    CardPlayed,
    Event,
    PitStopCollected,
    PitStopTaken,
)
from toprace_pi.games.toprace.rules.variants.pitstop import (
    DEAL,
    PIT_STOP_CLAIM,
    PIT_STOPS,
    ClaimPitStop,
    CollectPitStop,
    PitStopGame,
    TakeFromBox,
    TakeFromDiscard,
)
from toprace_pi.games.toprace.rules.variants.tips import TIP

MID_CARD = (Phase.CHOOSE_JOKER, Phase.SPRINT_OR_BREAKDOWN, Phase.MOVE_CAR, Phase.RETURN_CAR)


def pit_deal(players: int, hands: Sequence[Sequence[int]] = (), box: Sequence[int] | None = None) -> Deal:
    """A Pit Stop deal: seat i holds ``hands[i]``, the box ``box``; the rest in deck order."""
    k, n = DEAL[players]
    wanted = [list(h) for h in hands] + [[] for _ in range(players - len(hands))]
    chosen = list(box or ())
    rest = [c for c in DECK.numbers if c not in chosen and all(c not in h for h in wanted)]
    for hand in wanted:
        while len(hand) < k:
            hand.append(rest.pop(0))
    while len(chosen) < n:
        chosen.append(rest.pop(0))
    return Deal(tuple(tuple(sorted(h)) for h in wanted), tuple(rest), tuple(chosen))


def resolve(game: TopRace) -> None:
    """Work through the card in play with the first choice each time."""
    while game.phase in MID_CARD:
        game.apply(game.legal_actions()[0])


def of_type(game: TopRace, kind: type) -> list[Event]:
    return [e for e in game.events if isinstance(e, kind)]


def refused(game: TopRace, action: Action, match: str) -> None:
    before = state(game)
    with pytest.raises(IllegalActionError, match=match):
        game.apply(action)
    assert state(game) == before


class PitObserver(Observer):
    """The base observer, with the Pit Stop rule's card places instead of "each card
    played once", and the pit stop cards accounted for."""

    def __init__(self, game: TopRace) -> None:
        super().__init__(game)
        self.left_out: tuple[int, ...] = ()
        self.used = Counter[int]()  # pit stop cards used up this race, by seat
        self.plays = 0

    def _event(self, event: Event) -> None:
        if isinstance(event, (PitStopTaken, PitStopCollected)):
            self.used[event.seat] += 1
        elif isinstance(event, CardPlayed):
            self.plays += 1
        super()._event(event)

    def after(self, action: Action) -> None:
        if isinstance(action, Deal):
            self.left_out, self.used, self.plays = action.left_out, Counter(), 0
        super().after(action)

    def _check_cards(self) -> None:
        game = self.game
        assert isinstance(game, PitStopGame)
        if game.phase is Phase.DEAL:
            return
        waiting = [n for w in game.pit_waiting for n in w]
        places = game.box + game.discard + waiting + list(self.left_out)
        if game.hands is not None:
            assert [len(h) for h in game.hands] == game.hand_size
            places += [n for h in game.hands for n in h]
            assert sorted(places) == sorted(game.deck.numbers), "a speed card in two places, or in none"
        else:
            known = [n for k in game.known.by_seat for n in k]
            assert len(set(places + known)) == len(places + known), "a speed card in two places"
            assert len(places) + sum(game.hand_size) == len(game.deck)
            assert all(len(k) <= size for k, size in zip(game.known.by_seat, game.hand_size, strict=True))
        assert len(game.played) == self.plays and set(game.played) <= set(game.deck.numbers)
        for seat in range(game.player_count):
            assert game.pit_stops[seat] == PIT_STOPS - self.used[seat] >= len(game.pit_waiting[seat])


def pit_illegal(game: TopRace, rng: random.Random) -> list[tuple[str, Action]]:
    """Actions the Pit Stop rule forbids now (plus the base ones for the other phases)."""
    assert isinstance(game, PitStopGame)
    if game.phase is PIT_STOP_CLAIM:
        return [("a card played during the claims", PlayCard(game.claim_card)),
                ("a collect during the claims", CollectPitStop(game.claim_card)),
                ("a pit stop during the claims", TakeFromDiscard())]
    if game.phase is Phase.DEAL:
        deal = game.deal(random.Random(rng.getrandbits(32)))
        assert deal.hands is not None
        return [("a deal without the box", Deal(deal.hands, deal.left_out + deal.box)),
                ("a box card also in a hand", Deal(deal.hands, deal.left_out, deal.box[1:] + deal.hands[0][:1]))]
    if game.phase is TIP:
        return [("a pit stop during a tip round", TakeFromDiscard()), ("a claim during a tip round", ClaimPitStop())]
    if game.phase is not Phase.PLAY_CARD:
        return illegal_actions(game, rng)
    seat = game.seat
    found: list[tuple[str, Action]] = [("a card on the discard pile", PlayCard(n)) for n in game.discard[-2:]]
    found += [("a box card played", PlayCard(n)) for n in game.box[:2]]
    found += [("a box card that is not there", TakeFromBox(n)) for n in game.discard[-1:]]
    found += [("collecting a card that does not wait", CollectPitStop(n)) for n in game.box[:1]]
    if game.hands is not None:
        others = [n for s, hand in enumerate(game.hands) if s != seat for n in hand]
        found += [("another player's card", PlayCard(n)) for n in rng.sample(others, min(2, len(others)))]
    if game.pit_waiting[seat]:
        found.append(("a pass with a card waiting", Pass()))
        found += [("a play with a card waiting", PlayCard(n)) for n in (game.hands[seat] if game.hands else [])[:1]]
    elif game.hand_size[seat] and not game.PASS_WITH_CARDS:
        found.append(("a pass while holding cards", Pass()))
    if not game.free_pit_stops(seat):
        found += [("a pit stop without a free pit stop card", TakeFromBox(n)) for n in game.box[:1]]
    if not game.discard:
        found.append(("a pit stop from an empty discard pile", TakeFromDiscard()))
    return found
