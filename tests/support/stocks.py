"""The Stocks variant's grid, offer auctions and refusal probes, shared with the tests of Pit Stop with Stocks."""

from __future__ import annotations

import random

from scenarios import BLACK, BLUE, CARS, GREEN, PURPLE, RED, YELLOW

from toprace_pi.games.toprace.rules import (
    Bid,
    Deal,
    Pass,
    Phase,
    PlayCard,
    Sold,
    Sprint,
    TopRace,
)
from toprace_pi.games.toprace.rules.actions import Action
from toprace_pi.games.toprace.rules.auction import OPENING_BID, STEP
from toprace_pi.games.toprace.rules.variants.stocks import GRID as GRID_PHASE
from toprace_pi.games.toprace.rules.variants.stocks import (
    MAX_STOCKS,
    TAKE_OFFER,
    TRADE,
    Grid,
    StocksGame,
    TakeOffer,
    Trade,
)

B, R, Y, K, P, G = BLUE, RED, YELLOW, BLACK, PURPLE, GREEN


GRID = Grid((B, R, Y, K, P, G))


def win_offer(game: TopRace, seat: int, price: int = OPENING_BID) -> None:
    """Bid so that ``seat`` wins the offer auction now running, for ``price`` if it can."""
    while game.phase is Phase.BID:
        auction = game.auction
        assert auction is not None
        if game.to_move == seat:
            game.apply(Bid(max(price, auction.bid_range(game.money)[0])))
        elif not auction.may_pass():
            game.apply(Bid(OPENING_BID))
        else:
            game.apply(Pass())
    assert game.phase is TAKE_OFFER and game.to_move == seat, (game.phase, game.to_move)


WRONG_KIND: dict[Phase, Action] = {
    Phase.DEAL: Grid((B, R, Y, K, P, G)),
    Phase.BID: TakeOffer(46),
    TAKE_OFFER: Bid(OPENING_BID),
    GRID_PHASE: Deal(None),
    Phase.PLAY_CARD: Trade((B, B), (R, R)),
    TRADE: PlayCard(1),
    Phase.SPRINT_OR_BREAKDOWN: Pass(),
    Phase.CHOOSE_JOKER: Sprint(),
    Phase.MOVE_CAR: Trade((B, B), (R, R)),
    Phase.RETURN_CAR: Pass(),
    Phase.GAME_OVER: Trade((B, B), (R, R)),
}


def illegal(game: StocksGame, rng: random.Random) -> list[Action]:
    found = [WRONG_KIND[game.phase]]
    if game.phase is Phase.DEAL:
        deal = game.deal(random.Random(rng.getrandbits(32)))
        assert deal.hands is not None
        found += [Deal(deal.hands, deal.left_out + deal.offer[:1], offer=deal.offer[1:]),
                  Deal(deal.hands, deal.left_out), Deal(None)]
    elif game.phase is Phase.BID:
        auction = game.auction
        assert auction is not None
        found += [Bid(OPENING_BID + STEP // 2), Bid(0)] + ([] if auction.may_pass() else [Pass()])
        found += [Sold(s, OPENING_BID) for s in range(game.player_count) if not auction.may_bid(s)]
    elif game.phase is TAKE_OFFER:
        found += [TakeOffer(99)] + ([TakeOffer(n) for n in game.hands[game.seat][:2]] if game.hands else [])
    elif game.phase is GRID_PHASE:
        found += [Grid((B, R, Y, K, P, P)), Grid((B, R))]
    elif game.phase is Phase.PLAY_CARD:
        found += [Pass(), PlayCard(99)] + [PlayCard(n) for n in game.played[-2:]]
        if game.hands is not None:
            found += [PlayCard(h[0]) for s, h in enumerate(game.hands) if s != game.seat and h]
    elif game.phase is TRADE:
        held = game.stocks[game.seat]
        found += [Trade((B,), (R,)), Trade((B, B, R), (R, R, B))]
        short = [c for c in CARS if held[c] < 2]
        if short:
            found.append(Trade((short[0], short[0]), (short[0], short[0])))
        full = [c for c in CARS if held[c] >= MAX_STOCKS - 1]
        if full:
            other = next(c for c in CARS if c != full[0] and held[c] >= 2)
            found.append(Trade((other, other), (full[0], full[0])))
    return found
