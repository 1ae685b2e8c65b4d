"""Game verbs: ``pbem game new | open | join | start | receive | reveal``, ``pbem adjudicate``, ``pbem status``.

The protocol (``pbem.core.game``) does the work; this module parses arguments, and
pbem.cli.errors turns every failure into one ``error:`` line and exit code 1. It imports no game
(tests/core/test_layering.py): the ruleset comes from the registry (pbem.core.ruleset); only the
default ``--ruleset`` (pbem.cli.seam) and the help texts name the shipped games.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pbem.cli import peer as peer_cli
from pbem.cli.errors import fails_cleanly, say
from pbem.cli.files import RECORD_FOLDERS, write_output
from pbem.cli.key import load_key
from pbem.cli.lazy import lazy
from pbem.cli.seam import DEFAULT_RULESET
from pbem.cli.status import _when, arrived, describe, status
from pbem.cli.verify import reveal
from pbem.core.errors import FormatError
from pbem.core.lock import PRIVATE

if TYPE_CHECKING:  # the real modules for the type checker; at run time each is imported on first use
    from pbem.core import components as components_mod
    from pbem.core import drbg, identity
    from pbem.core import game as core_game
    from pbem.core import receipts as receipts_mod
    from pbem.core import ruleset as rs
else:
    core_game = lazy("pbem.core.game")
    drbg = lazy("pbem.core.drbg")  # hashlib and hmac: not for `pbem game --help`
    identity = lazy("pbem.core.identity")
    receipts_mod = lazy("pbem.core.receipts")
    rs = lazy("pbem.core.ruleset")
    components_mod = lazy("pbem.core.components")
DEFAULT_DEADLINE_HOURS = 72  # = pbem.core.ledger.DEFAULT_DEADLINE_HOURS (a test checks), here so --help needs no import

__all__ = ["game_app", "adjudicate", "status", "arrived", "describe", "fails_cleanly", "ruleset_named", "parse_pairs"]

game_app = typer.Typer(no_args_is_help=True, help="Referee: start a game, receive orders, publish the reveal.")
game_app.command("reveal")(reveal)

PassOpt = Annotated[Path | None, typer.Option("--passphrase-file", help="The referee key's passphrase file.")]
TRIAL_KEY = bytes(32)  # keys the trial set-up that checks scenario and options; never used for a real game


def parse_pairs(pairs: list[str], what: str) -> dict[str, str]:
    """``key=value`` arguments as a dict; refuses a pair without ``=`` or a repeated key."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise FormatError(f"{what} {pair!r} is not KEY=VALUE.")
        if key.strip() in out:
            raise FormatError(f"{what} {key.strip()!r} is given twice.")
        out[key.strip()] = value.strip()
    return out


def ruleset_named(name: str) -> Any:
    """A fresh instance of the ruleset registered under ``name`` (pbem.core.ruleset.load)."""
    return rs.load(name)


GameOpt = Annotated[Path, typer.Argument(help="Folder for the new game (created; must be empty).")]
RefereeOpt = Annotated[Path, typer.Option("--referee", help="The referee's private key file.")]
SideOpt = Annotated[list[str], typer.Option("--side", help="SIDE=PUBLIC_ID.pub.toml, once per side.")]
RulesetOpt = Annotated[str, typer.Option("--ruleset", help="The game's rules.")]
ScenarioOpt = Annotated[str, typer.Option("--scenario", help="A scenario of the ruleset (default: the ruleset's; "
                                          "hammer: braveheart, the_bruce or campaign; bagpipes: standard).")]
OptionOpt = Annotated[list[str] | None, typer.Option("--option", help="KEY=VALUE game option "
                                                     "(hammer: schiltroms=true, bid=E2; bagpipes: players=5, "
                                                     "rounds=9).")]
ComponentsOpt = Annotated[Path | None, typer.Option("--components", help="The game's component file (card "
                                                    "data, for a ruleset that takes one: bagpipes). Copied into "
                                                    "the game folder as components.toml, its SHA-256 recorded in "
                                                    "the manifest (protocol §10.3). Default: the ruleset's own.")]
HoursOpt = Annotated[int, typer.Option("--deadline-hours", min=0, max=100_000,
                                       help="Hours each step stays open after its report is written; then the "
                                            "referee may give default orders. 0: no deadline, never defaults.")]


def _game_args(ruleset: str, side: list[str], scenario: str, option: list[str] | None,
               components: Path | None = None, peer: bool = False) -> tuple[Any, dict[str, str], dict[str, Any], str]:
    """(ruleset, side -> public id file, options), all checked before any key is read.

    The options come first: a game's seats may depend on them (bagpipes: players=N), so the
    ruleset is built for them (``for_options``, protocol §10.1) before the sides are checked."""
    sides = parse_pairs(side, "--side")
    texts = parse_pairs(option or [], "--option")
    make = getattr(ruleset_named(ruleset), "player", None)
    options: dict[str, Any] = make().options_from_text(texts) if make is not None else dict(texts)
    if components is not None:  # its hash goes into the manifest; the ruleset parses and checks it (§10.3)
        if components_mod.OPTION in texts:
            raise FormatError(f"give --components or --option {components_mod.OPTION}=..., not both (protocol §10.3).")
        options[components_mod.OPTION] = components_mod.digest(components_mod.read(components))
    rules = rs.load(ruleset, options, components)
    seats = tuple(rules.sides)
    if peer:  # with no referee the seats are the peer seam's (a game's referee side has no seat, protocol §13)
        from pbem.core.peer.rules import hidden_rules
        seats = tuple(getattr(hidden_rules(rules), "sides", None) or seats)
    if set(sides) != set(seats):
        raise FormatError(f"--side must name each of {', '.join(seats)} once "
                          f"(got {', '.join(sorted(sides)) or 'none'}) (protocol §7.1).")
    scenario = scenario or default_scenario(rules)
    if scenario not in rules.scenarios():
        raise FormatError(f"unknown scenario {scenario!r}; choose one of {', '.join(rules.scenarios())} "
                          "(protocol §7.1).")
    rules.setup(scenario, dict(options), drbg.Drbg(TRIAL_KEY))  # set-up is pure: a trial run checks the options
    return rules, sides, options, scenario


def default_scenario(rules: Any) -> str:
    """The ruleset's default scenario (its player side's), else its first."""
    make = getattr(rules, "player", None)
    return str(make().default_scenario) if make is not None else str(rules.scenarios()[0])


def _game_inputs(ruleset: str, side: list[str], scenario: str, option: list[str] | None, referee: Path,
                 passphrase_file: Path | None, components: Path | None = None
                 ) -> tuple[Any, dict[str, Any], identity.PrivateIdentity, dict[str, identity.PublicIdentity], str]:
    """What ``game new`` and ``game open`` read: ruleset, options, the referee's key, each side's identity."""
    rules, sides, options, scenario = _game_args(ruleset, side, scenario, option, components)
    ref = load_key(referee, passphrase_file)
    pubs = {s: identity.load_public(Path(p)) for s, p in sorted(sides.items())}
    return rules, options, ref, pubs, scenario


@game_app.command("new")
@fails_cleanly
def new(game_dir: GameOpt, referee: RefereeOpt, side: SideOpt, ruleset: RulesetOpt = DEFAULT_RULESET,
        scenario: ScenarioOpt = "", option: OptionOpt = None, passphrase_file: PassOpt = None,
        deadline_hours: HoursOpt = DEFAULT_DEADLINE_HOURS, components: ComponentsOpt = None) -> None:
    """Start a game at once: manifest, dice commitment, set-up and the first reports
    (set-up dice: referee's secret only)."""
    rules, options, ref, pubs, scenario = _game_inputs(ruleset, side, scenario, option, referee, passphrase_file,
                                                       components)
    info = core_game.new_game(game_dir, rules, scenario, options, ref, pubs, deadline_hours=deadline_hours,
                              components=components_mod.read(components) if components is not None else None)
    say(f"game started in {game_dir}; {describe(info)}")
    say("\n".join(what_to_send(game_dir, info)))


@game_app.command("open")
@fails_cleanly
def open_(game_dir: GameOpt, side: SideOpt, referee: Annotated[Path | None, typer.Option(
          "--referee", help="The referee's private key file (not with --no-referee).")] = None,
          ruleset: RulesetOpt = DEFAULT_RULESET,
          scenario: ScenarioOpt = "", option: OptionOpt = None, passphrase_file: PassOpt = None,
          deadline_hours: HoursOpt = DEFAULT_DEADLINE_HOURS, components: ComponentsOpt = None,
          no_referee: Annotated[bool, typer.Option("--no-referee", help="A peer game: no referee key anywhere; "
                                                   "any player opens it (docs/protocol.md, Peer mode).")] = False,
          ) -> None:
    """Open a game for joins: publish the manifest and dice anchor; set-up waits for every side's entropy."""
    if no_referee:
        if referee is not None or components is not None:
            raise FormatError("a game with --no-referee takes no --referee and no --components (protocol §13).")
        rules, sides, options, scenario = _game_args(ruleset, side, scenario, option, peer=True)
        peer_cli.open_game(game_dir, ruleset, scenario, options, sides, deadline_hours)
        return
    if referee is None:
        raise FormatError("game open needs --referee KEY, or --no-referee for a game with no referee (protocol §7.1).")
    rules, options, ref, pubs, scenario = _game_inputs(ruleset, side, scenario, option, referee, passphrase_file,
                                                       components)
    game_id = core_game.open_game(game_dir, rules, scenario, options, ref, pubs, deadline_hours=deadline_hours,
                                  components=components_mod.read(components) if components is not None else None)
    also = f" and {game_dir / 'components.toml'}" if components is not None else ""
    say(f"game {game_id} opened in {game_dir}; send {game_dir / 'game.toml'}{also} to "
        f"{', '.join(sorted(pubs))} and wait for their joins")


@game_app.command("join")
@fails_cleanly
def join(
    game_dir: Annotated[Path, typer.Argument(help="The opened game's folder (at least its game.toml).",
                                             envvar="PBEM_GAME")],
    side: Annotated[str, typer.Option("--side", help="Your side.")],
    key: Annotated[Path, typer.Option("--key", envvar="PBEM_KEY", help="Your private key file.")],
    out: Annotated[Path, typer.Option("--out", help="Where to write the join to mail to the referee.")],
    passphrase_file: Annotated[Path | None, typer.Option("--passphrase-file", help="Your key's passphrase file.")]
    = None,
) -> None:
    """Player: seal your set-up entropy to the referee, bound to this game's manifest."""
    if peer_cli.is_peer(game_dir):
        peer_cli.join(game_dir, side, key, passphrase_file, out)
        return
    text = core_game.write_join(game_dir, load_key(key, passphrase_file), side)
    write_output(out, text)
    say(f"join of {side} written to {out}; mail it to the referee")


@game_app.command("resign")
@fails_cleanly
def resign(
    game_dir: Annotated[Path, typer.Argument(help="The peer game's folder.", envvar="PBEM_GAME")],
    key: Annotated[Path, typer.Option("--key", envvar="PBEM_KEY", help="Your private key file.")],
    out: Annotated[Path, typer.Option("--out", help="Where to write the resign to send to the other side.")],
    passphrase_file: PassOpt = None,
) -> None:
    """Player of a two-seat peer game: give the game up at the head of a step (protocol §13.13)."""
    if not peer_cli.is_peer(game_dir):
        raise FormatError(f"{game_dir} is a refereed game: resign is a peer game's verb (protocol §13.13).")
    peer_cli.resign(game_dir, key, passphrase_file, out)


@game_app.command("start")
@fails_cleanly
def start(
    game_dir: Annotated[Path, typer.Argument(help="The opened game's folder.")],
    joins: Annotated[list[Path], typer.Argument(help="Every side's join, as received.")],
    key: Annotated[Path, typer.Option("--key", envvar="PBEM_KEY",
                                      help="The referee's private key file.")] = Path("referee.key"),
    passphrase_file: PassOpt = None,
) -> None:
    """Run the set-up with every side's entropy and write entry 0 and the first reports."""
    info = core_game.start_game(game_dir, load_key(key, passphrase_file), list(joins))
    say(f"game started in {game_dir}; {describe(info)}")
    say("\n".join(what_to_send(game_dir, info)))


@game_app.command("receive")
@fails_cleanly
def receive(
    game_dir: Annotated[Path, typer.Argument(help="The game folder.")],
    order: Annotated[Path, typer.Argument(help="One order envelope, as received (armored mail text or binary).")],
    key: Annotated[Path, typer.Option("--key", envvar="PBEM_KEY",
                                      help="The referee's private key file.")] = Path("referee.key"),
    passphrase_file: PassOpt = None,
    receipt_out: Annotated[Path | None, typer.Option("--receipt-out", help="Also write the receipt here, to mail "
                                                     "back to the player.")] = None,
) -> None:
    """Check an order as it arrives, keep it until adjudication and issue its receipt for the player.

    A later order from the same side replaces it (with the next receipt number).
    """
    if peer_cli.is_peer(game_dir):
        peer_cli.receive(game_dir, [order])
        return
    ref = load_key(key, passphrase_file)
    receipt = core_game.receive_order(game_dir, ref, core_game.read_input(order), str(order))
    if receipt_out is not None:
        write_output(receipt_out, receipt.armored)
    say("\n".join(receipt_lines(game_dir, receipt, receipt_out)))


def receipt_lines(game_dir: Path, r: receipts_mod.Receipt, out: Path | None = None) -> list[str]:
    """What the referee tells about a receipt, and what the player must do with it (protocol §9.2)."""
    if r.identical:
        what = (f"order {r.seq} of {r.side} for step {r.step} again: this copy is identical to the order already "
                "kept, so nothing changed and its receipt is the one first issued")
    elif r.replaces:
        what = (f"order {r.seq} of {r.side} for step {r.step}, a replacement: it differs from order {r.seq - 1}, "
                "which it replaces")
    else:
        what = f"order {r.seq} of {r.side} for step {r.step}, the first from {r.side} for this step"
    timing = (f"received {_when(r.received)}, " + (f"in time for the deadline {_when(r.deadline)}" if r.in_time
                                                  else f"AFTER the deadline {_when(r.deadline)}")
              if r.deadline else f"received {_when(r.received)}; this game has no deadline")
    where = core_game.receipt_path(game_dir, r.step, r.side, r.seq)
    return [f"kept {what}; {timing}",
            f"receipt {r.seq} kept in {where}" + (f" and written to {out}" if out else ""),
            f"mail the receipt to {r.side}: it is the player's proof that this order arrived, and when; with it, "
            "pbem audit --receipt catches a referee who drops or swaps the order"]


@fails_cleanly
def adjudicate(
    game_dir: Annotated[Path, typer.Argument(help="The game folder (PBEM_GAME stands for it only when no order "
                                                  "file is given: name the folder before any file).",
                                             envvar="PBEM_GAME")],
    orders: Annotated[list[Path] | None, typer.Argument(help="Order envelopes received for this step.")] = None,
    key: Annotated[Path, typer.Option("--key", envvar="PBEM_KEY",
                                      help="The referee's private key file.")] = Path("referee.key"),
    deadline_passed: Annotated[bool, typer.Option("--deadline-passed", help="Apply the default orders "
                                                  "(docs/playing.md) for every side that sent none; refused "
                                                  "before the step's recorded deadline.")] = False,
    passphrase_file: PassOpt = None,
) -> None:
    """Receive the orders given (issuing receipts), adjudicate the step, write entry, reports and state atomically."""
    ref = load_key(key, passphrase_file)
    result = core_game.adjudicate(game_dir, ref, list(orders or []), deadline_passed=deadline_passed)
    for receipt in result.get("receipts", []):
        say("\n".join(receipt_lines(game_dir, receipt)))
    say(describe(result))
    say("\n".join(what_to_send(game_dir, result)))


def what_to_send(game_dir: Path, info: dict[str, Any]) -> list[str]:
    """After a step (or the set-up): which file goes to whom. Each side gets its own new report;
    everyone gets the public record (protocol §7): the whole game folder but its private ``.pbem/``.
    A player opens reports and seals orders with the manifest (and component file) and the ledger
    alone, but ``pbem verify`` reads every part of the record, so all of it is sent."""
    step, owes = info.get("step", 0), dict(info.get("owes") or {})
    reports = sorted(core_game.report_path(game_dir, int(step), s) for s in _sides(game_dir))
    lines = ["send:"]
    for path in reports:
        side = path.stem.split("-", 1)[1]
        task = f"; {side} owes {owes[side]} orders" if side in owes else ""
        lines.append(f"  to {side}: {path}{task}")
    folder = Path(game_dir)
    files = [name for name in ("game.toml", "components.toml") if (folder / name).is_file()]  # components: §10.3
    parts = files + [f"{name}/" for name in RECORD_FOLDERS if (folder / name).is_dir()]
    lines.append(f"  to everyone (or publish): the public record, all of {folder} except its private "
                 f"{folder / PRIVATE}/: {_listed(parts)} (protocol §7)")
    lines.append(f"  (players open reports and seal orders with {_listed(files + ['ledger/'])} alone; "
                 "pbem verify needs the whole public record)")
    return lines


def _listed(names: list[str]) -> str:
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)


def _sides(game_dir: Path) -> list[str]:
    from pbem.core import ledger
    return sorted(ledger.read_manifest(game_dir).sides)
