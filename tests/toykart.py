"""Toy Kart: Toy Dash with its things in words, for the lobby's and the results' tests.

Each seat drives a kart (the per-seat option ``karts``, named in the lobby from the glossary, two karts a
seat with two players as Scrap Racer's racers), the race has a start player (a seat option) and the end
shows a scoreboard. The race itself is Toy Dash's; registered with it by ``tests.web.toyplugin``.
"""

from __future__ import annotations

from slipstream.engine import registry
from slipstream.engine.errors import OptionError
from slipstream.engine.game import OptionSpec, Picker, State
from slipstream.engine.hooks import GameHooks, Term
from tests import toygame

KARTS = {
    "kart-red": Term("Red Rocket", "Starts a little ahead of the others.", "kart"),
    "kart-blue": Term("Blue Comet", "Never stalls on a 1.", "kart"),
    "kart-green": Term("Green Gecko", "Grips the curves.", "kart"),
    "kart-gold": Term("Gold Dust", "Shines at the finish.", "kart"),
}
"""The karts by id: their names and effects (the effects are words only: the race is Toy Dash's)."""


class ToyKart(toygame.ToyDash):
    id = "toy-kart"
    name = "Toy Kart"
    description = "Toy Dash in karts, for 2 to 4 players: walk or dash each round, first past the line wins."
    option_specs = (
        *toygame.ToyDash.option_specs,
        OptionSpec("karts", "random", "kart ids in seat order, comma-separated (two a seat with 2 players)",
                   lobby=Picker(words="each player's kart", terms="kart", per_seat=True,
                                labels=(("random", "dealt at random"),), seat_counts=((2, "", 2),))),
        OptionSpec("first", -1, "the start player's seat, 0-based; -1: at random", kind=int, minimum=-1,
                   maximum=3, lobby=Picker("Start player", "who goes first", seat=True,
                                           labels=((-1, "drawn at random"),))),
    )

    def _setup(self) -> None:
        karts = str(self.options["karts"])
        if karts != "random":
            chosen = karts.split(",")
            need = self.players * (2 if self.players == 2 else 1)
            if len(chosen) != need or len(set(chosen)) != need or not set(chosen) <= set(KARTS):
                raise OptionError(f"{self.id}: option 'karts' needs {need} different karts from {', '.join(KARTS)}")

    @classmethod
    def hooks(cls) -> GameHooks:
        return GameHooks(glossary=glossary, scoreboard=scoreboard)


def glossary(game: object) -> dict[str, Term]:
    return dict(KARTS)


def scoreboard(state: State) -> dict[int, dict[str, str]]:
    assert isinstance(state, toygame.DashState)
    # "Place" as Rush 'n' Crush's scoreboard has it ("3rd (wreck)"): the page shows it in its place column
    result = state.result
    order = result.order if result is not None else tuple(state.game.seats)
    return {s: {"Place": str(order.index(s) + 1), "Spaces": str(state.pos[s]),
                "Sprinted": "yes" if state.sprinted[s] else "no"}
            for s in state.game.seats}


def install() -> None:
    registry.register(ToyKart)
