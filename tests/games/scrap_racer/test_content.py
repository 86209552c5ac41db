"""Setup, tracks, content files, options and bad input (rulebook pages 2-3 and 9; DESIGN.md)."""

from __future__ import annotations

import cmath
import json
import math
import tomllib
from pathlib import Path

import pytest

import slipstream
from slipstream.engine import CHANCE, ContentError, IllegalActionError, OptionError
from slipstream.engine.record import replay
from slipstream.games.scrap_racer.content import TRACK_DIR, TrackFile, load_content, load_track

from .helpers import content_file, play, position, race, roll, track_file

# --- setup -----------------------------------------------------------------------------------------


def test_dashboards_are_drawn_at_random_and_the_start_player_too() -> None:
    """Setup 7): "The dashboards are shuffled. Each player randomly draws one". Setup 8) names the youngest
    player; SR-G8: the start player is drawn at random (option start_seat=-1, the default)."""
    g = slipstream.load("scrap-racer", players=3)
    s = g.start(seed=0)
    assert s.actor == CHANCE
    assert s.chance_outcomes() == [(f"racer:{r}", pytest.approx(1 / 6)) for r in
                                   sorted(["swifty", "jackal", "crusher", "hover", "twister", "steel-jacket"])]
    s = play(s, "racer:jackal")
    assert len(s.chance_outcomes()) == 5 and "racer:jackal" not in s.legal_actions()
    s = play(s, "racer:hover", "racer:swifty")
    assert s.chance_outcomes() == [(f"start:P{n}", pytest.approx(1 / 3)) for n in (1, 2, 3)]
    s = play(s, "start:P2")
    assert list(s.order) == [1, 2, 0] and s.actor == CHANCE and s.legal_actions() == [f"die:{n}" for n in range(1, 7)]
    assert list(s.racer) == ["jackal", "hover", "swifty"]


def test_setup_places_a_boost_marker_on_every_boost_space() -> None:
    """Setup 2): "place one facedown on each track space marked accordingly. Stack the remaining markers
    facedown near the race track as a common supply." (18 markers, 10 boost spaces on Track A: 8 left.)
    Setup 3), 4), 6): bonus, goal and crash decks; 17 bonus markers."""
    g = race()
    s = g.start(seed=0)
    view = s.view(None)
    assert view["boost_spaces_filled"] == [b - 1 for b in (2, 6, 10, 17, 20, 26, 30, 34, 41, 44)]
    assert view["supply"] == {"bonus_markers": 17, "boost_markers": 8}
    assert view["decks"] == {"crash-low": 18, "crash-middle": 19, "crash-high": 19, "bonus": 28, "goal": 16}


# --- tracks ----------------------------------------------------------------------------------------


def endpoint(kinds: list[str], straight: float = 1.0, radius: float = math.sqrt(2)) -> complex:
    """Where a pen tracing the tiles ends (straight tiles of length ``straight``, 45-degree arcs)."""
    here, heading = 0j, 1 + 0j
    turn = cmath.exp(-1j * math.pi / 4)
    for kind in kinds:
        if kind == "S":
            here += heading * straight
        else:
            step = turn if kind == "R" else 1 / turn
            centre = here + heading * (-1j if kind == "R" else 1j) * radius
            here = centre + (here - centre) * step
            heading *= step
    return here


def test_track_a_as_decided_sr_g4_g5_g6() -> None:
    """Setup 1) Track A (SR-G4, SR-G5, SR-G6): S S S C C C C S S S C C C C, straights of 4 spaces and
    curves of 3: 48 spaces; boost spaces 2, 6, 10, 17, 20, 26, 30, 34, 41, 44."""
    t = load_track("A")
    assert t.length == 48
    assert t.kinds == "S" * 12 + "C" * 12 + "S" * 12 + "C" * 12
    assert [b + 1 for b in t.boost] == [2, 6, 10, 17, 20, 26, 30, 34, 41, 44]
    assert race().track == t


@pytest.mark.parametrize("name", ["A", "B", "C"])
def test_shipped_tracks_are_closed_circuits_of_the_14_tiles(name: str) -> None:
    """Race track Variants: "Players can also build their own circuits as long as it is a circular track";
    14 segments: 6 straights and 8 curves. Checked with an independent geometric trace."""
    data = TrackFile.model_validate(tomllib.loads((TRACK_DIR / f"{name}.toml").read_text()))
    kinds = [t.kind for t in data.tiles]
    assert kinds.count("S") == 6 and len(kinds) == 14
    assert abs(endpoint(kinds)) < 1e-9
    assert abs(endpoint(kinds[:-1])) > 0.5 and abs(endpoint(["S", *kinds])) > 0.5, "the tracer can fail"
    short = [t.kind for t in data.tiles if not t.short]
    assert abs(endpoint(short)) < 1e-9
    assert load_track(name).length == 48
    assert load_track(name, short=True).length == 40


def test_short_race_leaves_out_the_red_x_tiles() -> None:
    """Race track Variants: "To have a shorter game, players can decide to remove tiles that are marked in
    red (X)." Track A: straights 2 and 9, 40 spaces; a lap is then 40 spaces."""
    g = race(short=True)
    assert g.track.length == 40 and g.track.name == "Track A (short race)"
    assert g.track.kinds == "S" * 8 + "C" * 12 + "S" * 8 + "C" * 12
    s = play(position(g, pos={0: 37, 1: 60, 2: 70, 3: 75}), *roll(1, 3))
    assert s.progress[0] == 41 and s.laps[0] == 1, "a lap of the short track is 40 spaces"


def test_track_b_kinds_drive_the_abilities() -> None:
    """Race track Variants, Track B (our layout, SR-G6): Swifty's ability follows that track's curves."""
    g = race(track="B", racers="swifty,jackal,crusher,hover")
    assert g.track.kinds[:10] == "SSSSCCCCCC"
    s = play(position(g, pos={0: 1, 1: 30, 2: 35, 3: 40}), *roll(1, 3))
    assert s.progress[0] == 6


def test_track_c_plays() -> None:
    """Race track Variants, Track C (our layout, SR-G6)."""
    g = race(track="C", racers="swifty,jackal,crusher,hover")
    assert g.track.kinds[8:11] == "CCC"
    s = play(position(g, pos={0: 5, 1: 30, 2: 35, 3: 40}), *roll(1, 3))
    assert s.progress[0] == 10


SMALL = """
name = "Kidney"
source = "default"
straight_spaces = 2
curve_spaces = 2
tiles = [
  { kind = "S", boost = [1] },
  { kind = "R" }, { kind = "R" }, { kind = "R" }, { kind = "R", boost = [2] },
  { kind = "S" },
  { kind = "R" }, { kind = "R" }, { kind = "R" }, { kind = "R" },
]
"""


def test_a_custom_track_file(tmp_path: Path) -> None:
    """Race track Variants: "Players can also build their own circuits" (option track=FILE.toml)."""
    path = track_file(tmp_path, SMALL)
    g = race(track=str(path))
    assert g.track.length == 20 and g.track.name == "Kidney"
    assert [b + 1 for b in g.track.boost] == [1, 10]
    s = play(position(g, pos={0: 18, 1: 3, 2: 5, 3: 7}), *roll(1, 2))
    assert s.progress[0] == 21 and s.laps[0] == 1


def test_the_finish_line_may_stand_on_another_tile(tmp_path: Path) -> None:
    """Race track Variants: "The finish line position in each circuit is a suggestion. It can also be placed
    on any other tile." A track file lists its tiles from the finish line: Track A with the line before its
    first curve starts with curve spaces, and the abilities and cards follow (Swifty ends on space 2, a
    curve, and moves on)."""
    text = (TRACK_DIR / "A.toml").read_text()
    data = tomllib.loads(text)
    tiles = data["tiles"][3:] + data["tiles"][:3]
    lines = ['name = "Track A from the first curve"', 'source = "default"', "straight_spaces = 4",
             "curve_spaces = 3", "tiles = ["]
    for tile in tiles:
        boost = f", boost = {tile['boost']}" if "boost" in tile else ""
        lines.append(f'  {{ kind = "{tile["kind"]}"{boost} }},')
    lines.append("]")
    g = race(track=str(track_file(tmp_path, "\n".join(lines) + "\n")), racers="swifty,hover,crusher,twister")
    assert g.track.length == 48 and g.track.kinds[:12] == "C" * 12 and g.track.kinds[12:24] == "S" * 12
    s = play(position(g), *roll(2))
    assert s.progress[0] == 3, "space 2 is a curve here: Swifty moves on"


@pytest.mark.parametrize(("text", "problem"), [
    (SMALL.replace('{ kind = "R" }, { kind = "R" }, { kind = "R" }, { kind = "R" },\n]', '{ kind = "R" },\n]'),
     "not one full circle"),
    (SMALL.replace('  { kind = "S" },\n', ""), "do not come back"),
    (SMALL.replace('{ kind = "R" }, { kind = "R" }, { kind = "R" }, { kind = "R" },\n]',
                   '{ kind = "R" }, { kind = "R" }, { kind = "L" }, { kind = "R" },\n]'), "not one full circle"),
])
def test_a_track_that_is_not_closed_is_refused(tmp_path: Path, text: str, problem: str) -> None:
    """Race track Variants: a circuit must be "a circular track": a file that does not close is a
    ContentError naming the file, the record and the field."""
    path = track_file(tmp_path, text)
    with pytest.raises(ContentError, match=problem) as info:
        race(track=str(path))
    assert info.value.source == str(path) and info.value.record == "tiles" and info.value.field == "kind"
    assert "not a closed circuit" in str(info.value)


def test_a_track_with_a_boost_space_off_its_tile(tmp_path: Path) -> None:
    """Content validation: a boost space beyond the tile's spaces names the tile."""
    path = track_file(tmp_path, SMALL.replace("boost = [1]", "boost = [3]"))
    with pytest.raises(ContentError) as info:
        race(track=str(path))
    assert info.value.record == "tiles #1" and info.value.field == "boost"


def test_a_malformed_track_file(tmp_path: Path) -> None:
    """Content validation: a bad field value names file, record and field."""
    path = track_file(tmp_path, SMALL.replace('kind = "S", boost', 'kind = "X", boost'))
    with pytest.raises(ContentError) as info:
        race(track=str(path))
    assert info.value.source == str(path) and info.value.record == "tiles #1" and info.value.field == "kind"
    with pytest.raises(ContentError, match="no such file"):
        race(track=str(tmp_path / "missing.toml"))


# --- content files -----------------------------------------------------------------------------------


def test_the_shipped_content_sr_g1_g2_g3() -> None:
    """Components and SR-G1/G2/G3: 56 crash cards split 18/19/19, 28 bonus cards, 16 goal cards (4 each),
    18 boost markers (6 each), 17 bonus markers, six racers."""
    c = load_content()
    assert [sum(n for _, n in pile) for pile in c.piles] == [18, 19, 19]
    assert dict(c.piles[0]) == {"advance-2": 3, "advance-3": 3, "advance-5": 3, "two-dice": 5,
                                "five-forward-two-back": 4}
    assert dict(c.piles[1]) == {"three-forward": 4, "stay-put": 4, "catching-up-2": 4, "backwards-die": 3,
                                "push-5": 4}
    assert dict(c.piles[2]) == {"backwards-4": 3, "backwards-6": 3, "catching-up-4": 4, "loss-of-position": 3,
                                "backwards-die": 3, "last-place-4": 3}
    assert c.pile_of_double == (-1, 0, 0, 1, 1, 2, 2)
    assert dict(c.bonus) == {"forward-3": 6, "forward-5": 5, "forward-7": 3, "straight": 5, "curve": 5,
                             "catch-up": 4}
    assert dict(c.goal) == {"all-but-first": 4, "all-but-first-two": 4, "last-two": 4, "last-place": 4}
    assert dict(c.boost) == {"plus-minus": 6, "reroll": 6, "turn": 6}
    assert c.bonus_markers == 17 and c.markers_per_card == 3 and c.hover_markers_per_card == 2
    assert [n for _, n in c.racers] == ["Swifty", "Jackal", "Crusher", "Hover", "Twister", "Steel Jacket"]


def test_a_user_content_file_is_used(tmp_path: Path) -> None:
    """Content: a user may pass their own content file (option content=FILE): here a crash pile 3/4 that
    holds Push 5 only."""
    path = content_file(tmp_path, ("cards = { three-forward = 4, stay-put = 4, catching-up-2 = 4, "
                                   "backwards-die = 3, push-5 = 4 }", "cards = { push-5 = 19 }"))
    g = race(content=str(path))
    s = play(position(g, pos={0: 20}), "die:3", "roll", "die:3")
    assert s.chance_outcomes() == [("crash:push-5", 1.0)]


@pytest.mark.parametrize(("old", "new", "record", "field"), [
    ("forward-3 = 6", "forward-4 = 6", "bonus_cards", "cards"),
    ("count = 17", 'count = "many"', "bonus_markers", "count"),
    ("per_card = 3", "per_card = 0", "bonus_markers", "per_card"),
    ('source = "rulebook"         # "6 each', 'source = "guess"         # "6 each', "boost_markers", "source"),
    ("doubles = [5, 6]", "doubles = [4, 6]", "crash.high", "doubles"),
    ("doubles = [5, 6]", "doubles = [6]", "crash", "doubles"),
    ('id = "hover"', 'id = "rocket"', "racers #4", "id"),
    ('id = "hover"', 'id = "jackal"', "racers", "id"),
])
def test_a_malformed_content_file_names_file_record_and_field(tmp_path: Path, old: str, new: str, record: str,
                                                              field: str) -> None:
    """Content files are validated; a bad file raises ContentError(source, record, field, problem)."""
    path = content_file(tmp_path, (old, new))
    with pytest.raises(ContentError) as info:
        race(content=str(path))
    err = info.value
    assert (err.source, err.record, err.field) == (str(path), record, field)
    assert str(path) in str(err) and record in str(err)


def test_content_that_is_not_toml(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[crash\n")
    with pytest.raises(ContentError, match="not valid TOML"):
        race(content=str(path))


# --- options ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("kwargs", "listed"), [
    ({"variant": "x"}, "content, jackal, racers, short, start_seat, track, two_racers"),
    ({"jackal": "always"}, "own-turn, every-fight"),
    ({"track": "Z"}, "A, B, C"),
    ({"racers": "swifty,jackal,crusher,rocket"}, "swifty, jackal, crusher, hover, twister, steel-jacket"),
    ({"racers": "swifty,jackal"}, "needs 4 different racers"),
    ({"racers": "swifty,swifty,crusher,hover"}, "needs 4 different racers"),
    ({"start_seat": 4}, "-1 (random) or a seat 0-3"),
    ({"start_seat": 9}, "at most 5"),
    ({"start_seat": 1, "start_player": 2}, "'start_player' is its old 1-based name"),
    ({"start_player": "first"}, "takes a whole number"),
    ({"short": "maybe"}, "true or false"),
])
def test_unknown_options_and_values_are_refused_listing_the_valid_ones(kwargs: dict[str, object],
                                                                      listed: str) -> None:
    """Options: an unknown option or value raises OptionError naming the valid ones."""
    with pytest.raises(OptionError) as info:
        slipstream.load("scrap-racer", players=4, **kwargs)
    assert listed in str(info.value)


def test_start_seat_is_0_based_and_old_records_start_player_still_loads() -> None:
    """SR-G8, option start_seat: seat numbers are 0-based everywhere, so start_seat=2 makes seat 2 (P3) the
    start player. Records made before issue 13 carry the old 1-based option start_player (0: random); it is
    read as start_seat = start_player - 1, and such a record replays."""
    g = race(racers="hover,twister,crusher,swifty", start_seat=2)
    assert g.record_options()["start_seat"] == 2 and "start_player" not in g.record_options()
    assert list(g.start(seed=0).order) == [2, 3, 0, 1]
    old = slipstream.load("scrap-racer", players=4, racers="hover,twister,crusher,swifty", start_player=3)
    assert old.options == g.options
    assert slipstream.load("scrap-racer", players=4, start_player=0).options["start_seat"] == -1
    record = {"game": "scrap-racer", "version": "1", "seed": 5, "actions": ["die:3", "stop"],
              "options": {"players": 4, "track": "A", "short": False, "two_racers": False,
                          "racers": "hover,twister,crusher,swifty", "start_player": 3, "content": None}}
    final = replay(record)
    assert final.record()["options"]["start_seat"] == 2 and final.progress == [0, 0, 3, 0]


def test_player_counts() -> None:
    """Components: "for 2 - 6 racer"."""
    for bad in (1, 7):
        with pytest.raises(OptionError, match="from 2 to 6"):
            slipstream.load("scrap-racer", players=bad)


# --- illegal actions -------------------------------------------------------------------------------


def snapshot(s: object) -> str:
    return json.dumps([s.view(seat) for seat in (None, 0, 1, 2, 3)], sort_keys=True)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("setup", "bad"), [
    ((), "stop"),                                                   # before any die
    (("die:2",), "die:3"),                                          # a die while deciding
    (("die:2",), "boost:up"),                                       # no marker held
    (("die:2", "roll", "die:2"), "crash:last-place-4"),             # a card from another pile
    (("die:2", "stop"), "play:forward-3"),                          # no such card in hand
    (("die:2",), "first:hover"),
    (("die:2",), "win:hover"),
    (("die:2",), "1:stop"),
])
def test_illegal_actions_raise_and_change_nothing(setup: tuple[str, ...], bad: str) -> None:
    """Bad input gets a clear error (IllegalActionError listing the legal actions) and changes nothing."""
    g = race()
    s = play(position(g, pos={0: 20, 1: 30}), *setup)
    before = snapshot(s)
    with pytest.raises(IllegalActionError) as info:
        s.apply(bad)
    assert repr(bad) in str(info.value) and info.value.legal == tuple(s.legal_actions())
    assert snapshot(s) == before


def test_the_other_seats_may_not_act() -> None:
    """Playing the Game: only the active player decides; at a chance node no seat acts."""
    g = race()
    s = play(position(g, pos={0: 20}), "die:2")
    assert s.actor == 0
    assert s.legal_actions() == ["roll", "stop"]
    assert s.view(1)["legal_actions"] is None and s.view(0)["legal_actions"] == ["roll", "stop"]
