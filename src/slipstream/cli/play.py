"""``slipstream play``, ``replay`` and ``demo``: races in the terminal, for any registered game.

Each game may provide ``slipstream.games.<pkg>.render`` with ``board(view)``, ``describe_action(action)``
and ``hints(state, seat)``; without it the view is shown as plain data.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

import slipstream
from slipstream.bots.registry import bot_names, make_bot
from slipstream.engine.citation import rule_words
from slipstream.engine.errors import SlipstreamError
from slipstream.engine.game import CHANCE, Game, State
from slipstream.engine.hooks import hooks_of
from slipstream.engine.play import Agent, pending_seats
from slipstream.engine.record import dumps, parse, states
from slipstream.sim.words import seat_words

from .common import fail, message_of, parse_options

console = Console(highlight=False)


class Quit(Exception):
    """The human asked to stop."""


def show_board(state: State, seat: int | None) -> None:
    view = state.view(seat)
    board_text = hooks_of(state.game).board_text
    if board_text is not None:
        console.print(Panel(board_text(view), title=state.game.name, expand=False))
    else:
        console.print(Panel(escape(json.dumps(view, indent=1)[:4000]), title=state.game.name, expand=False))


def describe(game: Game, action: str) -> str:
    describe_action = hooks_of(game).describe_action
    return str(describe_action(game, action)) if describe_action is not None else action


def cite(rule: str) -> str:
    """A rule citation as printed after an event: ``— Setup 7.`` for ``Setup 7)``, the rule in words
    (``slipstream.engine.citation.rule_words``: no decision code), empty when the rule has no words."""
    words = rule_words(rule)
    return "\u2014 " + words if words else ""


def print_events(state: State, seat: int | None) -> None:
    for event in state.events:
        if event.visible_to(seat):
            citation = cite(event.rule)
            rule = f" [dim]{escape(citation)}[/]" if citation else ""
            console.print(f"  {escape(event.text)}{rule}")


class TerminalPlayer:
    """A human at the keyboard: numbered options, the odds that matter, save and quit."""

    def __init__(self, save: Path | None) -> None:
        self.save = save

    def choose(self, state: State, seat: int) -> str:
        self._show(state, [seat])
        legal = state.legal_actions(seat)
        for i, action in enumerate(legal, 1):
            console.print(f"  [bold]{i:2d}[/]  {escape(describe(state.game, action))}")  # words, not the action
        return legal[self._ask(state, f"{state.game.seat_name(seat)}, your move", legal)]

    def choose_for_team(self, state: State, seats: list[int]) -> tuple[int, str]:
        """A decision open to several people at this keyboard in a cooperative game (who plays next, an
        Assist): the table sees every seat's choices in one list and picks one; (seat, action)."""
        game = state.game
        self._show(state, seats)
        options = [(seat, action) for seat in seats for action in state.legal_actions(seat)]
        texts = [action if action.startswith(f"{seat}:") else f"{seat}:{action}" for seat, action in options]
        for i, ((seat, action), text) in enumerate(zip(options, texts, strict=True), 1):
            whose = "" if text == action else f"{game.seat_name(seat)}: "  # a seat's own action names it
            console.print(f"  [bold]{i:2d}[/]  {escape(whose + describe(game, action))}")
        names = " or ".join(game.seat_name(seat) for seat in seats)
        return options[self._ask(state, f"The team's move ({names})", texts)]

    def _show(self, state: State, seats: list[int]) -> None:
        """The board as the first of ``seats`` sees it, and each seat's hints."""
        show_board(state, seats[0])
        hints = hooks_of(state.game).hints
        if hints is None:
            return
        for seat in seats:
            for line in hints(state, seat):
                prefix = f"{state.game.seat_name(seat)}: " if len(seats) > 1 else ""
                console.print(f"[cyan]{escape(prefix + line)}[/]")

    def _ask(self, state: State, prompt: str, texts: list[str]) -> int:
        """The index of the option picked by its number, or by its action text for those who know the
        notation (not shown: a player reads words); ``s`` saves, ``q`` quits."""
        while True:
            try:
                answer = input(f"{prompt} (number; s save, q quit): ").strip()
            except EOFError:
                raise Quit() from None
            if answer == "q":
                raise Quit()
            if answer == "s":
                self._save(state)
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(texts):
                return int(answer) - 1
            if answer in texts:
                return texts.index(answer)
            console.print(f"[red]Not a legal choice: {escape(answer)!r}. Pick a number from 1 to {len(texts)}.[/]")

    def _save(self, state: State) -> None:
        path = self.save or Path(f"{state.game.id}-{state.seed}.json")
        try:
            path.write_text(dumps(state))
        except OSError as exc:
            console.print(f"[red]Not saved: {escape(message_of(exc))}[/]")
            return
        console.print(f"[green]Saved the race to {path}[/] (slipstream replay {path}; play --resume {path})",
                      soft_wrap=True)  # one line, whatever the width: the commands are copied whole



def build_seats(game: Game, humans: int, bots: str, seats: str | None, seed: int,
                save: Path | None) -> tuple[list[Agent], list[str]]:
    if seats:
        kinds = [s.strip() for s in seats.split(",")]
    else:
        bot_list = [b.strip() for b in bots.split(",") if b.strip()] or ["heuristic"]
        kinds = ["human"] * humans + [bot_list[i % len(bot_list)] for i in range(game.players - humans)]
    if len(kinds) != game.players:
        raise SlipstreamError(f"{game.players} seats needed, got {len(kinds)}: {','.join(kinds)} "
                              "(--seats names every seat)")
    agents: list[Agent] = []
    for i, kind in enumerate(kinds):
        if kind == "human":
            agents.append(TerminalPlayer(save))
        else:
            agents.append(make_bot(kind, game.id, seed=seed * 100 + i))
    return agents, kinds


def save_record(state: State, save: Path | None, note: str) -> None:
    """Write the record to ``save`` (checked writable when the race started)."""
    if save is None:
        return
    try:
        save.write_text(dumps(state))
    except OSError as exc:
        console.print(f"[red]Not saved: {escape(message_of(exc))}[/]")
        return
    console.print(f"[green]{note} {save}[/] (slipstream replay {save})", soft_wrap=True)


def run_race(state: State, agents: list[Agent], kinds: list[str], delay: float, save: Path | None) -> State:
    """Play to the end; a quit (``q``, end of input) or Ctrl-C stops the race and saves it to ``save``."""
    humans = [i for i, k in enumerate(kinds) if k == "human"]
    watcher = humans[0] if len(humans) == 1 else None
    try:
        while state.actor is not None:
            if state.actor == CHANCE:
                state = state.apply_chance()
            else:
                seat, action = next_choice(state, agents, kinds)
                state = state.apply(action)
                if kinds[seat] != "human":
                    console.print(f"[bold]{state.game.seat_name(seat)}[/] ({kinds[seat]}): "
                                  f"{escape(describe(state.game, action))}")
                    if delay:
                        time.sleep(delay)
            print_events(state, watcher)
    except (Quit, KeyboardInterrupt) as stop:
        console.print("\n[yellow]Race stopped.[/]")
        save_record(state, save, "Saved to")
        if isinstance(stop, KeyboardInterrupt):
            raise typer.Exit(130) from None
        return state
    show_board(state, watcher)
    show_result(state)
    save_record(state, save, "Saved the record to")
    return state


def next_choice(state: State, agents: list[Agent], kinds: list[str]) -> tuple[int, str]:
    """(seat, action) of the next choice: the first seat asked; in a cooperative game, a decision open to
    several human seats goes to the table as one list (the team picks who acts), before any bot acts."""
    seats = pending_seats(state)
    people = [seat for seat in seats if kinds[seat] == "human"]
    if state.game.cooperative and len(people) > 1:
        player = agents[people[0]]
        assert isinstance(player, TerminalPlayer)
        return player.choose_for_team(state, people)
    if state.game.cooperative and people:
        seats = people  # the people at the table answer a team window before the bots
    seat = seats[0]
    return seat, agents[seat].choose(state, seat)


def show_result(state: State) -> None:
    result = state.result
    if result is None:
        return
    if result.team:
        team = ", ".join(state.game.seat_name(s) for s in result.order)
        verdict = "The team wins" if result.winners else "The team loses"
        console.print(Panel(f"{escape(result.reason)}\n{verdict}: {escape(team)}", title="Result", expand=False))
        return
    names = ", ".join(f"{i}. {state.game.seat_name(s)}" for i, s in enumerate(result.order, 1))
    console.print(Panel(f"{escape(result.reason)}\nFinishing order: {names}", title="Result", expand=False))


def check_writable(path: Path, state: State) -> None:
    """Write the record now, so a path that cannot be written is refused before the race, not after."""
    try:
        if path.is_dir():
            raise IsADirectoryError(21, "Is a directory", str(path))
        path.write_text(dumps(state))
    except OSError as exc:
        raise SlipstreamError(f"cannot save the race to {path}: {(exc.strerror or str(exc)).lower()}") from None


def resumed_race(resume: Path, game_id: str, players: int | None, seed: int | None,
                 options: dict[str, Any]) -> State:
    """The last state of the saved race ``resume``. Settings given beside ``--resume`` must be the saved
    race's: one that differs is refused (a resumed race keeps the settings it was saved with)."""
    record = parse(resume.read_text(encoding="utf-8"))
    if record["game"] != game_id:
        raise SlipstreamError(f"{resume} is a {record['game']} record, not {game_id}: "
                              f"slipstream play {record['game']} --resume {resume}")
    *_, state = states(record)
    game = state.game
    keep = "a resumed race keeps the settings it was saved with: leave the option out, or start a new race"
    if players is not None and players != game.players:
        raise SlipstreamError(f"{resume} is a {game.players}-player race, not --players {players}; {keep}")
    if seed is not None and seed != state.seed:
        raise SlipstreamError(f"{resume} was played with --seed {state.seed}, not {seed}; {keep}")
    if options:
        saved = {k: v for k, v in record["options"].items() if k != "players"}
        given = slipstream.load(game_id, players=game.players, **{**saved, **options}).options
        changed = [name for name in options if given.get(name) != game.options.get(name)]
        if changed:
            was = ", ".join(f"{name}={game.options.get(name)}" for name in changed)
            asked = ", ".join(f"-o {name}={options[name]}" for name in changed)
            raise SlipstreamError(f"{resume} was saved with {was}, not {asked}; {keep}")
    return state


def play_command(
    game_id: Annotated[str, typer.Argument(help="the game id, e.g. scrap-racer (see: slipstream games)")],
    players: Annotated[int | None, typer.Option("--players", "-p", help="number of players")] = None,
    humans: Annotated[int, typer.Option(help="human seats (hot-seat), taking the first seats")] = 1,
    bots: Annotated[str, typer.Option(help="bots for the other seats, comma-separated (cycled)")] = "heuristic",
    seats: Annotated[str | None, typer.Option(help="every seat in order, e.g. human,heuristic,random")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="a game option key=value")] = None,
    seed: Annotated[int | None, typer.Option(help="the seed that fixes every roll and draw (default 0)")] = None,
    save: Annotated[Path | None, typer.Option(
        help="write the race record here (on s, q, Ctrl-C and at the end; with --resume: instead of the "
             "resumed file)")] = None,
    resume: Annotated[Path | None, typer.Option(
        help="continue a saved race record, and save it back there (unless --save names another file)")] = None,
    delay: Annotated[float, typer.Option(help="seconds to pause after each bot move")] = 0.0,
) -> None:
    """Play a race in the terminal against bots, or hot-seat with several humans."""
    try:
        if not delay >= 0:
            raise SlipstreamError(f"--delay must be 0 or more seconds, not {delay}")
        options = parse_options(option or [])
        if resume is not None:
            state = resumed_race(resume, game_id, players, seed, options)
            game = state.game
            save = save or resume
        else:
            count = players if players is not None else len(seats.split(",")) if seats else None
            game = slipstream.load(game_id, players=count, **options)
            state = game.start(seed=seed or 0)
        if not 0 <= humans <= game.players:
            raise SlipstreamError(f"--humans must be from 0 to {game.players}, not {humans}")
        agents, kinds = build_seats(game, humans, bots, seats, state.seed, save)
        if save is not None:
            check_writable(save, state)
    except (ValueError, OSError) as exc:
        raise fail(exc) from None
    console.print(f"[bold]{game.name}[/]: {', '.join(f'{game.seat_name(i)} {k}' for i, k in enumerate(kinds))}"
                  f"  (bots available: {', '.join(bot_names(game.id))})")
    if resume is not None:
        console.print(f"Resumed {escape(str(resume))} at move {state.ply}; it is saved back to {escape(str(save))}",
                      soft_wrap=True)
    run_race(state, agents, kinds, delay, save)


def load_race(path: Path, race: int | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The record to replay and what else is known of it (``bots``, ``index``: a simulated race's): a
    record file, or race ``race`` of a simulation run (its directory or its ``races.jsonl.gz``)."""
    from slipstream.sim import store

    if path.is_dir() or path.name.endswith((".jsonl", ".jsonl.gz", ".gz")):
        records = path / store.RACES_FILE if path.is_dir() else path
        if not records.exists():
            raise SlipstreamError(f"{path} holds no simulated races ({store.RACES_FILE} is missing)")
        count = 0
        for line in store.iter_file(records):
            if line["index"] == race:
                return ({k: line[k] for k in ("game", "version", "options", "seed", "actions")},
                        {"bots": line.get("bots"), "index": race})
            count = max(count, line["index"] + 1)
        if race is None:
            raise SlipstreamError(f"{path} is a simulation run: choose a race with --race I (0 to {count - 1})")
        raise SlipstreamError(f"{path} has no race {race}: its races are 0 to {count - 1}")
    if race is not None:
        raise SlipstreamError(f"--race picks a race of a simulation run; {path} is one race record")
    return parse(path.read_text(encoding="utf-8")), {}


def replay_header(path: Path, first: State, record: dict[str, Any], known: dict[str, Any],
                  seat: int | None) -> str:
    """What is replayed: the game, which race of which run, the seed, the options, the bots by seat (a
    simulated race's; a saved race does not record who played) and whose view is shown."""
    game = first.game
    where = f"race {known['index']} of {path}" if "index" in known else str(path)
    options = ", ".join(f"{k}={v}" for k, v in game.record_options().items())
    lines = [f"{game.name}: {where}, seed {record['seed']}, {len(record['actions'])} actions",
             f"options: {options}"]
    bots = known.get("bots")
    if bots:
        lines.append("bots: " + ", ".join(f"{seat_words(i)} {bot}" for i, bot in enumerate(bots)))
    lines.append("shown as everyone sees it" if seat is None else
                 f"shown as {seat_words(seat)} saw it, hidden cards included")
    return "\n".join(lines)


def replay_command(
    path: Annotated[Path, typer.Argument(help="a race record (JSON) saved by play or the server, or a "
                                              "simulation run's directory (with --race)")],
    race: Annotated[int | None, typer.Option(help="the race of a simulation run to replay (from 0)")] = None,
    seat: Annotated[int | None, typer.Option(
        help="show what this seat saw, hidden cards included (seats count from 0: seat 0 is P1)")] = None,
    step: Annotated[bool, typer.Option(help="wait for Enter after each action (end of input: go on to the "
                                            "end without waiting)")] = False,
) -> None:
    """Replay a saved race action by action, with the log and the final board."""
    try:
        record, known = load_race(path, race)
        all_states = states(record)
        first = next(all_states)
        players = first.game.players
        if seat is not None and not 0 <= seat < players:
            raise SlipstreamError(f"--seat must be from 0 to {players - 1} in this {players}-player race "
                                  f"(seats count from 0: seat 0 is P1), not {seat}")
        console.print(Panel(escape(replay_header(path, first, record, known, seat)), title="Replay", expand=False))
        final: State = first
        for state in all_states:
            console.print(f"[dim]{state.ply:4d}[/] {escape(describe(state.game, state.actions[-1]))}")
            print_events(state, seat)
            if step:
                try:
                    input()
                except EOFError:
                    step = False
                    console.print("[dim](end of input: the rest without stopping)[/]")
            final = state
    except (ValueError, OSError) as exc:
        raise fail(exc) from None
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    show_board(final, seat)
    show_result(final)


def demo_command(
    game_id: Annotated[str, typer.Argument(help="the game to show")] = "scrap-racer",
    seed: Annotated[int, typer.Option(help="the seed of the race")] = 1,
) -> None:
    """A short bot-only race, printed as it happens: the quickest look at Slipstream."""
    options: dict[str, Any] = {"short": True} if game_id == "scrap-racer" else {}
    try:
        game = slipstream.load(game_id, **options)
        bots = "heuristic" if "heuristic" in bot_names(game_id) else "random"
        agents, kinds = build_seats(game, 0, bots, None, seed, None)
    except (ValueError, OSError) as exc:
        raise fail(exc) from None
    console.print(f"[bold]{game.name}[/]: a bot-only race ({', '.join(kinds)}), seed {seed}")
    run_race(game.start(seed=seed), agents, kinds, 0.0, None)


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)
    app.command("replay")(replay_command)
    app.command("demo")(demo_command)
