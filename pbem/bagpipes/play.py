"""Whole bot games: at engine level (fast, for property tests) and through the real protocol.

``demo(players)`` is the one call the CLI needs for ``pbem demo --ruleset bagpipes --players N``.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.bagpipes import views
from pbem.bagpipes.bots import BOTS, referee_bot, safe_order
from pbem.bagpipes.components import Components, dagger_value
from pbem.bagpipes.engine import check as check_order
from pbem.bagpipes.engine import default_order, defeats_to_lose
from pbem.bagpipes.model import REFEREE, Phase, Table, parse_order, to_data
from pbem.bagpipes.rules import BagpipesRules, parse_options, step
from pbem.core import inputs
from pbem.core.drbg import Drbg
from pbem.core.errors import PbemError


@dataclass
class Summary:
    """What a finished bot game says: winners, rounds, exchanges, and the protocol checks when run."""

    players: int
    winners: list[str]
    reason: str
    rounds: int
    defeats: int
    steps: int
    exchanges: int                       # steps in which at least one clan owed an order
    exchanges_per_round: list[int] = field(default_factory=list)
    verified: bool | None = None
    audited: bool | None = None
    game_dir: str = ""
    problems: list[str] = field(default_factory=list)
    cards: str = ""                      # the component file's edition name (the sample says it is invented)

    def lines(self) -> list[str]:
        """What ``pbem demo --ruleset bagpipes`` prints."""
        who = ", ".join(self.winners) or "nobody (a declared tie)"
        out = [f"Swords and Bagpipes, {self.players} players, cards: {self.cards}: {self.rounds} round(s), "
               f"{self.defeats} Scottish defeat(s).", f"winner(s): {who} - {self.reason}",
               f"{self.steps} steps, {self.exchanges} exchanges by mail "
               f"({', '.join(map(str, self.exchanges_per_round))} per round)"]
        if self.verified is not None:
            out.append(f"verify: {'ok' if self.verified else 'FAILED'}; audit: {'ok' if self.audited else 'FAILED'}"
                       + (f"; game folder {self.game_dir}" if self.game_dir else ""))
        return out


def bot_rng(seed: bytes, seat: str, step_no: int) -> Drbg:
    return Drbg(hashlib.sha256(b"pbem-bagpipes-bot" + seed + seat.encode() + step_no.to_bytes(4, "big")).digest())


def check_invariants(t: Table, comps: Components) -> list[str]:
    """Gold and troops never negative; supplies balance; every card is somewhere exactly once."""
    bad = []
    for s in t.seats:
        for name in ("gold", "castle", "camp", "virtual_daggers"):
            if getattr(s, name) < 0:
                bad.append(f"{s.id} {name} {getattr(s, name)} < 0")
    if t.fields < 0:
        bad.append(f"fields {t.fields} < 0")
    gold = sum(s.gold for s in t.seats)
    if gold != t.gold_minted - t.gold_returned:
        bad.append(f"gold held {gold} != minted {t.gold_minted} - returned {t.gold_returned}")
    troops = sum(s.castle + s.camp for s in t.seats) + t.fields
    if troops != t.troops_minted - t.troops_returned:
        bad.append(f"troops held {troops} != minted {t.troops_minted} - returned {t.troops_returned}")
    pipes = sorted(t.bagpipe_deck + t.bagpipe_discard + [c for s in t.seats for c in s.hand]
                   + [c for s in t.seats for c, _ in s.x2_up])
    if pipes != sorted(comps.bagpipe_copies()):
        bad.append("bagpipe cards are not each in exactly one place")
    if t.options.players > 2:
        daggers = sorted(t.dagger_deck + t.dagger_discard + [c for s in t.seats for c in s.daggers])
        if daggers != sorted(comps.dagger_cards()):
            bad.append("dagger cards are not each in exactly one place")
    else:
        daggers = sorted(t.dagger_discard + list(t.chosen_daggers.values())
                         + [c for s in t.seats for c in s.dagger_hand + s.daggers + s.dagger_discard])
        if len(set(daggers)) != len(daggers) or any(sum(f"#{s.id}-" in c for c in daggers) != 7 for s in t.seats):
            bad.append("2-player dagger cards are not each in exactly one place")
    rounds = sorted(t.round_deck + t.revealed + t.round_out)
    if rounds != sorted(c.id for c in comps.round_cards):
        bad.append("round cards are not each in exactly one place")
    return bad


def play_engine_game(players: int, seed: bytes, bots: Mapping[str, str] | str = "random",
                     options: Mapping[str, Any] | None = None, components: Components | None = None,
                     check: bool = True) -> Summary:
    """A whole game between bots on the engine alone (no files, no crypto): the property tests' driver."""
    rules = BagpipesRules(players, components)
    opts = rules.options(**dict(options or {}))
    state = rules.setup("standard", opts, Drbg(hashlib.sha256(b"setup" + seed).digest()))
    t = Table.from_data(state)
    per_round: dict[int, int] = {}
    problems: list[str] = []
    while t.phase != Phase.OVER:
        orders = {}
        for side in sorted(t.pending.owes):
            view = views.view(t, rules.components, side)
            rng = bot_rng(seed, side, t.step)
            if side == REFEREE:
                body = referee_bot(view, side, t.pending.owes[side], rng)
            else:
                name = bots if isinstance(bots, str) else bots.get(side, "random")
                body = BOTS[name](view, side, t.pending.owes[side], rng)
            name = "referee" if side == REFEREE else (bots if isinstance(bots, str) else bots.get(side, "random"))
            try:
                order = parse_order(body, f"order from {side}")
                check_order(t, rules.components, side, order)
            except PbemError as exc:
                if name != "random":
                    problems.append(f"{name} bot order refused: {exc}")
                order = default_order(t, side, t.pending.owes[side])
                check_order(t, rules.components, side, order)
            orders[side] = order
        if any(s != REFEREE for s in t.pending.owes):
            per_round[t.round] = per_round.get(t.round, 0) + 1
        t = step(t, rules.components, orders, Drbg(hashlib.sha256(b"step" + seed + t.step.to_bytes(4, "big")).digest()))
        if check:
            problems += [f"step {t.step}: {p}" for p in check_invariants(t, rules.components)]
        if t.step > 500:
            problems.append("the game did not end in 500 steps")
            break
    rounds = t.round
    return Summary(players, list(t.winners), t.end_reason, rounds, t.defeats, t.step, sum(per_round.values()),
                   [per_round.get(r, 0) for r in range(1, rounds + 1)], problems=problems,
                   cards=rules.components.name)


def play_protocol_game(game_dir: Path, players: int, seed: bytes = b"demo", bots: str = "simple",
                       options: Mapping[str, Any] | None = None, components: Path | None = None) -> Summary:
    """A whole bot game through pbem.core.game: open, joins, start, sealed orders, adjudicate, verify, audit."""
    from pbem.core import audit as audit_mod
    from pbem.core import game, identity

    def key(name: str, n: int) -> identity.PrivateIdentity:
        digest = hashlib.sha256(seed + name.encode()).digest()
        return identity.from_seeds(name, digest, hashlib.sha256(digest + bytes([n])).digest())

    rules = BagpipesRules(players, components)
    opts = rules.options(**dict(options or {}))
    referee = key("referee", 0)
    keys = {s: (referee if s == REFEREE else key(s, i + 1)) for i, s in enumerate(rules.sides)}
    game_dir = Path(game_dir)
    game.open_game(game_dir, rules, "standard", opts, referee, {s: k.public for s, k in keys.items()},
                   game_id=f"bagpipes-{players}p-demo", chain_length=400,
                   components=inputs.read_input(components, inputs.MAX_FILE, "a component file")
                   if components is not None else None)
    joins = [game.write_join(game_dir, keys[s], s) for s in rules.sides]
    status = game.start_game(game_dir, referee, joins, rules=rules)
    per_round: dict[int, int] = {}
    steps = 0
    while status["owes"]:
        number = status["step"]
        board = status["board"]
        for side in sorted(status["owes"]):
            report = game.open_report(game.report_path(game_dir, number, side), keys[side], game_dir)
            view = report["view"]
            rng = bot_rng(seed, side, number)
            kind = status["owes"][side]
            body = referee_bot(view, side, kind, rng) if side == REFEREE else BOTS[bots](view, side, kind, rng)
            try:   # the referee checks each order as it arrives; a refused one is replaced by the safe order
                game.receive_order(game_dir, referee, game.write_order(game_dir, keys[side], side, number, body),
                                   rules=rules)
            except PbemError:
                game.receive_order(game_dir, referee, game.write_order(game_dir, keys[side], side, number,
                                                                       safe_order(view, side, kind)), rules=rules)
        if any(s != REFEREE for s in status["owes"]):
            per_round[board["round"]] = per_round.get(board["round"], 0) + 1
        status = game.adjudicate(game_dir, referee, [], rules=rules)
        steps += 1
    problems: list[str] = []
    verified = audited = False
    try:
        game.verify(game_dir)
        verified = True
        audit_mod.audit(game_dir, audit_mod.make_reveal(game_dir, referee), rules=rules)
        audited = True
    except PbemError as exc:       # the summary says so instead of pretending
        problems.append(f"{'audit' if verified else 'verify'} failed: {exc}")
    result, board = status["result"], status["board"]
    rounds = int(board["round"])
    return Summary(players, list(result.get("winners", [])), str(result.get("reason", "")), rounds,
                   int(board["defeats"]), steps, sum(per_round.values()),
                   [per_round.get(r, 0) for r in range(1, rounds + 1)],
                   verified=verified, audited=audited, game_dir=str(game_dir), problems=problems,
                   cards=rules.components.name)


def demo(players: int = 5, game_dir: Path | None = None, seed: bytes = b"pbem-bagpipes-demo",
         bots: str = "simple", options: Mapping[str, Any] | None = None) -> Summary:
    """``pbem demo --ruleset bagpipes --players N``: a whole verified and audited bot game."""
    if game_dir is None:
        game_dir = Path(tempfile.mkdtemp(prefix="pbem-bagpipes-")) / "game"
    return play_protocol_game(game_dir, players, seed, bots, options)


__all__ = ["Summary", "play_engine_game", "play_protocol_game", "demo", "check_invariants", "dagger_value",
           "defeats_to_lose", "parse_options", "to_data"]
