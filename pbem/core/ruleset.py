"""The one seam between protocol and game (design brief §8, docs/protocol.md §10).

The protocol never imports a game and never names one: an installed game announces its ruleset
as a Python entry point in the group ``pbem.rulesets`` (name -> ``"package.module:Class"``),
loaded only when a game needs it; tests add rulesets of their own with ``register``.

All states, orders, boards and reports are plain data (dict/list/str/int/bool/None) with a
canonical form (pbem.core.canonical); every random thing comes from the ``Drbg`` handed in.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pbem.core.drbg import Drbg
from pbem.core.errors import FormatError


@dataclass
class StepResult:
    """What adjudicating one step gives back: the new secret state, its public board (what the
    ledger entry records: equal to ``public(state)``), one report per side, the step's log lines."""

    state: dict[str, Any]
    public: dict[str, Any]
    reports: dict[str, dict[str, Any]]
    log: list[dict[str, Any]] = field(default_factory=list)


@runtime_checkable
class Ruleset(Protocol):
    """A game as the protocol drives it. ``sides`` is the side order used for entropy (§8)."""

    id: str
    version: str
    sides: tuple[str, ...]

    def scenarios(self) -> tuple[str, ...]:
        """Scenario names ``setup`` accepts."""

    def setup(self, scenario: str, options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
        """The first secret state."""

    def owes(self, state: dict[str, Any]) -> dict[str, str]:
        """Side -> kind of order it owes next; empty when the game is over."""

    def result(self, state: dict[str, Any]) -> dict[str, Any]:
        """The outcome so far (e.g. ``{"winner": "", "reason": ""}``)."""

    def secrets(self, state: dict[str, Any]) -> dict[str, Any]:
        """Each hidden item to commit to, label -> plain data (brief §6)."""

    def public(self, state: dict[str, Any]) -> dict[str, Any]:
        """The public board: what every side and observer may know."""

    def view(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        """What ``side`` may see."""

    def report(self, state: dict[str, Any], side: str, log: list[dict[str, Any]], game_id: str = "",
               step: int = 0) -> dict[str, Any]:
        """One side's report: its view, what happened that it may know, what it owes next."""

    def default_order(self, state: dict[str, Any], side: str) -> dict[str, Any]:
        """The order given for a side that missed the deadline."""

    def validate(self, state: dict[str, Any], side: str, body: dict[str, Any]) -> None:
        """Raise InvalidOrder / IllegalOrder when ``side`` may not send ``body`` now; nothing when it may."""

    def adjudicate(self, state: dict[str, Any], orders: dict[str, dict[str, Any]], rng: Drbg,
                   game_id: str = "") -> StepResult:
        """One step: the new state, its public board, the reports and the log."""


DRAFT_HEADER = ("game", "side", "step", "kind")  # what binds an order's text to its envelope (protocol §7.3)


@runtime_checkable
class Draft(Protocol):
    """One side's orders for one step as a player writes them (header + what is sealed)."""

    side: str
    step: int
    kind: str
    game: str

    def body(self) -> Any:
        """The plain data that is signed and sealed to the referee."""


def draft_header(draft: Draft) -> dict[str, Any]:
    """The header every game's order body starts with, in ``DRAFT_HEADER`` order."""
    return {"game": draft.game, "side": draft.side, "step": draft.step, "kind": draft.kind}


@dataclass
class DemoResult:
    """What a whole bot game played through the protocol says (``pbem demo``).

    ``verified``/``audited`` are False, with the reason in ``problems``, when a check failed: a
    demo never pretends (issue 15 item 1: ``bool(verify(...))`` was always true)."""

    lines: list[str]
    verified: bool
    audited: bool
    problems: list[str] = field(default_factory=list)
    footer: list[str] = field(default_factory=list)  # printed after the time the game took


@runtime_checkable
class PlayerSide(Protocol):
    """The player's half of a game (protocol §10.2): drafts, their check, rendering, bots, demo.

    Every method reads only the side's own opened report, never the referee's state, so what a
    player sees and checks is what the report carries. ``render_svg``/``render_html`` return ""
    when the game has no picture. The CLI finds this through ``player_of(load(name))``.
    """

    default_scenario: str
    bots: tuple[str, ...]
    order_kinds: tuple[str, ...]
    scenario_help: str
    option_help: str

    def options_from_text(self, pairs: Mapping[str, str]) -> dict[str, Any]:
        """Manifest options from ``--option key=value`` strings (typed as the game wants them)."""

    def parse_draft(self, text: str, source: str) -> Draft:
        """A draft file's text, parsed; a fault names ``source``."""

    def dump_draft(self, draft: Draft) -> str:
        """The draft as the text a player edits."""

    def template(self, report: dict[str, Any], draft_path: str, report_path: str, key: str, game_dir: str) -> str:
        """A draft to start from, for what the report asks."""

    def next_commands(self, report: dict[str, Any], draft_path: str, report_path: str, key: str,
                      game_dir: str) -> str:
        """The check and seal commands for a draft, with the real file names (the game folder, when
        known, on both: a report saved outside its game folder is checked against it)."""

    def check_draft(self, draft: Draft, report: dict[str, Any]) -> list[str] | None:
        """The referee's own validation as far as the player's view allows; raises on a fault.
        May return notes: sentences on a draft accepted that may not do what its player means."""

    def auto_draft(self, report: dict[str, Any], bot: str, seed: bytes, previous: Draft | None,
                   bot_plans: bool, where: str) -> tuple[Draft, str]:
        """(a bot's draft, a note for the player). ``previous`` is the draft already at ``where``."""

    def render_text(self, report: dict[str, Any]) -> str:
        """The report as text (without the title and "next" lines the CLI adds)."""

    def render_svg(self, report: dict[str, Any]) -> str:
        """The side's picture of the board as SVG, or "" when the game has none."""

    def render_html(self, report: dict[str, Any], title: str, footer: str) -> str:
        """The report as one self-contained HTML page, or "" when the game has none."""

    def default_note(self, step: int, owed: str, question: dict[str, Any] | None) -> str:
        """The sentence telling a side its order of ``step`` was given by default."""

    def demo(self, folder: Path, scenario: str, players: int, bots: tuple[str, ...], seed: bytes) -> DemoResult:
        """Play a whole bot game through the protocol in ``folder``; verify and audit it."""

    def check_demo(self, scenario: str, players: int, bots: tuple[str, ...]) -> None:
        """Refuse demo arguments before anything is written (FormatError). ``players`` 0 = the default."""

    def demo_title(self, scenario: str, bots: tuple[str, ...]) -> str:
        """The line the demo prints before it plays."""


@dataclass(frozen=True)
class ToolParam:
    """One argument of a ruleset's tool, as its command line takes it: a positional argument
    (``flag`` "") or an option (``flag`` "--battle"); ``kind`` "text", "path" or "switch" (an option
    with no value, False unless given). ``name`` is the key ``Tool.run`` finds its value under."""

    name: str
    help: str
    flag: str = ""
    kind: str = "text"
    required: bool = False


class ToolIO(Protocol):
    """What a tool reads and writes through (the CLI's readers and writers: every file refused in one
    sentence as protocol §3.1 says, every output written atomically), so a game needs no CLI module."""

    def read_text(self, path: Path, what: str) -> str:
        """The UTF-8 text of ``path``, which should be ``what`` (a position file, ...)."""

    def write(self, path: Path, text: str) -> None:
        """Write ``text`` to ``path`` (a ``--out`` option) atomically."""

    def say(self, text: str, nl: bool = True) -> None:
        """Print on standard output."""


@dataclass(frozen=True)
class Tool:
    """A workbench a ruleset offers outside any game (Hammer: a position sandbox, a battle's odds): its
    verb ``name``, its help (the first sentence is its one-line help), its arguments and what runs it
    (``run(values, io)``, ``values`` by ``ToolParam.name``; a fault raises a PbemError). Protocol §10.2."""

    name: str
    help: str
    params: tuple[ToolParam, ...]
    run: Callable[[Mapping[str, Any], ToolIO], None]


def tools_of(rules: Any) -> tuple[Tool, ...]:
    """The tools a ruleset offers (its optional ``tools()`` method); () when it offers none."""
    offer = getattr(rules, "tools", None)
    return tuple(offer()) if offer is not None else ()


def log_order(rules: Any, state: dict[str, Any]) -> dict[str, list[int]] | None:
    """Side -> the position in the step's whole log of each line of its report's ``log``, from the
    ruleset's optional ``log_order(state)``; None for a ruleset whose report lines do not need the
    step's order to be replayed (docs/protocol.md §9: the reveal bundle's ``lines``)."""
    order = getattr(rules, "log_order", None)
    if order is None:
        return None
    got: dict[str, list[int]] = order(state)
    return {side: list(got[side]) for side in sorted(got)}


def player_of(rules: Any) -> PlayerSide:
    """The ruleset's player side (its optional ``player()`` method), refused in one sentence when absent."""
    make = getattr(rules, "player", None)
    if make is None:
        raise FormatError(f"ruleset {getattr(rules, 'id', '?')!r} has no player side (drafts, reports, bots) "
                          "in this build (protocol §10.2).")
    player: PlayerSide = make()
    return player


ENTRY_POINT_GROUP = "pbem.rulesets"
_REGISTERED: dict[str, str | Callable[[], Any]] = {}


def register(name: str, target: str | Callable[[], Any]) -> None:
    """Register a ruleset by name: a ``"module:Class"`` path (imported lazily) or a factory."""
    _REGISTERED[name] = target


_ANNOUNCED: dict[str, str] = {}


def _installed() -> dict[str, str]:
    """Rulesets announced by installed packages (entry point group ``pbem.rulesets``), read once a process:
    a referee loads its ruleset for every order it takes in, and each read scans every installed package."""
    if not _ANNOUNCED:
        from importlib.metadata import entry_points  # here, not at the top: it costs more than typer's start-up

        _ANNOUNCED.update({ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)})
    return dict(_ANNOUNCED)


def registered() -> tuple[str, ...]:
    return tuple(sorted(set(_installed()) | set(_REGISTERED)))


def load(name: str, options: Mapping[str, Any] | None = None, components: Path | None = None) -> Ruleset:
    """A fresh instance of the ruleset registered under ``name`` (explicit registration wins).

    With ``options`` (a manifest's, when one is at hand) a ruleset whose seats depend on them is
    built by its optional classmethod ``for_options(options)`` (protocol §10.1). ``components`` is
    the game's component file (protocol §10.3), handed to ``for_options(options, components)`` of a
    ruleset that declares ``takes_components = True``; any other ruleset refuses one."""
    target = _REGISTERED.get(name) or _installed().get(name)
    if target is None:
        raise FormatError(f"unknown ruleset {name!r}; known: {', '.join(registered()) or 'none'} (protocol §10).")
    if isinstance(target, str):
        module_name, _, attr = target.partition(":")
        try:
            factory = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError):
            raise FormatError(f"ruleset {name!r} ({target}) cannot be imported in this build (protocol §10).") from None
    else:
        factory = target
    for_options = getattr(factory, "for_options", None)
    if components is not None and not getattr(factory, "takes_components", False):
        raise FormatError(f"ruleset {name!r} takes no component file; leave out --components (protocol §10.3).")
    if components is not None and for_options is not None:
        made = for_options(dict(options or {}), components)
    elif options is not None and for_options is not None:
        made = for_options(dict(options))
    else:
        made = factory()
    if not isinstance(made, Ruleset):  # a registered name whose object lacks the seam's methods
        raise FormatError(f"ruleset {name!r} does not provide the Ruleset seam (protocol §10).")
    return made


def outcome_parts(outcome: StepResult) -> tuple[dict[str, Any], dict[str, Any], dict[str, dict[str, Any]]]:
    """(state, public, reports) of a step's result."""
    return outcome.state, outcome.public, outcome.reports
