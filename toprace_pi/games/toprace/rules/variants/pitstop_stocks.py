"""Variant B (Stocks) played with the Pit Stop rule: variant name ``"pitstop+stocks"``.

Everything of :mod:`~toprace_pi.games.toprace.rules.variants.stocks` (nobody owns a car,
secret stocks, the offer auctions that also fix the seating order, the random
grid, stock rounds, settlement) and of :mod:`~toprace_pi.games.toprace.rules.variants.pitstop`
(the box, three pit stop cards each, claims, collecting, turn-start pit stops,
playing on without speed cards) holds at once. :class:`PitStopStocksGame` is the
two classes combined through ``super()``; what the combination changes:

* **The deal** follows the rulebook's "Stocks & Pit Stop" table
  (:data:`~toprace_pi.games.toprace.rules.variants.stocks.PITSTOP_DEAL`): fewer cards per
  player, an offer row and a face-up box. The three Sprint/Breakdown cards are
  always part of the offer row; the other 45 cards are shuffled and go to the
  hands, then to fill the offer row, then to the box. The table uses all 48
  cards, so none is left out. Notation:
  ``deal 1,2/3,4 offer 46,47,48,9 box 5,6,7,8,10,11``.
* **Turn order is the seating order** the offer auctions decided, for every
  pit-stop moment as well: after a card is played the other players are asked
  whether they claim it in seating order from the player's successor, so the
  earliest in turn order gets it (:meth:`TopRace.seats_after`).
* **What a seat sees** (:meth:`StocksGame.view`): its own stocks and hand, and
  the public pit-stop state (box, discard pile, pit stop cards, claimed cards).

Interpretations (the rulebook leaves these open; decided here):

- **Taking part.** Nobody owns a car, so the Pit Stop rule's "while one of
  their cars is still racing" cannot apply; as the Stocks variant says, every
  player races to the end. A player takes part while they hold a speed card
  or at least one pit stop card (a free one or one with a claimed card on it),
  whichever cars have finished. Only a player with neither has nothing left to
  do; their turns are skipped, as in Stocks a player without cards is skipped.
- **Claims** are open to every player with a free pit stop card (all take
  part), never to the player who just played the card.
- **Playing, collecting, passing.** The Stocks duty to play a card each turn
  holds while a player has speed cards in hand: they play one, or make a
  turn-start pit stop instead (a pit stop is always an alternative to playing,
  as in the Pit Stop rule). With a claimed card waiting they must collect one
  (or make a turn-start pit stop). A player with no speed cards left may make a
  pit stop or pass; passing is only allowed with an empty hand.
- **Stock rounds** follow every complete round of turns in the seating order,
  until the first car finishes. A collect, a turn-start pit stop and a pass are
  turns like playing a card; a skipped player's turn counts as taken; claims are
  not turns. The claim window after the round's last card comes before the
  stock round.
- **The end.** The race ends at the fifth finish, when no player takes part any
  more (all speed cards played and all pit stop cards used: reason "all speed
  cards are played"), or when nobody holds speed cards and every player taking
  part has passed once in turn, with no card played and no pit stop made in
  between (reason "every player has passed once in turn"). No stock round
  follows the passes that end the race.
- Stocks (5 of each car) and the three pit stop cards each are handed out anew
  for every race of a match.
- **Hidden hands** (cards dealt by hand at a real table): the deal names both the
  offer row and the box (``deal hidden offer 46,47,48,9 box 5,6,...``). A card
  taken from the offer row or by a pit stop is known to be in that hand until
  it is played: nobody else may play it, and a player whose other cards are all
  played may play only those.
- A broken-down car goes back on the track where the player whose turn it is
  chooses (no owner), as in Stocks.
"""

from __future__ import annotations

from toprace_pi.games.toprace.rules.variants.pitstop import PitStopGame
from toprace_pi.games.toprace.rules.variants.stocks import PITSTOP_DEAL, StocksGame


class PitStopStocksGame(PitStopGame, StocksGame):
    """Stocks with the Pit Stop rule. The method order is PitStopGame, StocksGame,
    TopRace: the Pit Stop hooks run first and hand on to the Stocks ones."""

    VARIANT = "pitstop+stocks"

    # --- dealing -----------------------------------------------------------------

    def cards_per_player(self) -> int:
        return PITSTOP_DEAL[self.player_count][0]

    def offer_size(self) -> int:
        return PITSTOP_DEAL[self.player_count][1]

    def box_size(self) -> int:
        return PITSTOP_DEAL[self.player_count][2]

    # --- taking part ---------------------------------------------------------------

    def takes_part(self, seat: int) -> bool:
        """Holding a speed card or a pit stop card: nobody owns a car, everyone
        races to the end."""
        return self.hand_size[seat] > 0 or self.pit_stops[seat] > 0
