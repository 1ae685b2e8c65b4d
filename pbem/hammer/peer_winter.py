"""The Winter Turn with no referee (docs/hammer-peer.md §5, rules 7.1-7.8).

Nobody sees both sides' blocks, so the winter is played by each owner on its own blocks, in the rules'
order, and its order states what came of it (the *claims*): which of its blocks moved where (7.1 nobles
home, 7.2 the King, 7.3-7.5 disbanding), the choices the refereed log shows (Moray, the King, Wallace,
Edward's camp), the Scots' draws per area (7.62). Three rounds, each a commit and a reveal:

- ``england``: 7.1 the English nobles go home, 7.3/7.4 English disbanding; England seals its pool again;
- ``scotland``: 7.1 the Scottish nobles and Moray, 7.2 the King, 7.5 Scottish disbanding, the count of
  the scenario's last year (9.0), the French Knights (7.61), the draws (7.62): Scotland seals its pool
  again and the joint stream draws handles from it;
- ``builds``: both sides at once (7.6: the steps each adds are its own secret): each seals every block
  of its on the map again, as {block, strength}; then the Feudal Levy draws handles of England's new
  pool (7.7) and the year turns (7.8): the next ``owes`` asks for the new deal.

Sealing a pool again makes its order secret again (a disbanded block whose identity a battle showed goes
back face-down, as at the table); sealing the map again commits the strengths builds changed, and the
blocks seen in battle are unseen again (their strength is secret again). A claim is checked by the real
winter (winter.py) on the owner's true blocks, answering each question as the claim says: the same
claims must come out (``check``), on the owner's client before it binds itself and for every order at
the final audit, where every fact is known; a seal is checked against the true blocks there too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from pbem.core.drbg import Drbg
from pbem.core.peer.rules import Facts, PeerStep
from pbem.hammer.rules import kings
from pbem.hammer.rules.blocks import SIDES, blocks, spec
from pbem.hammer.rules.board import ENGLAND, board
from pbem.hammer.rules.decisions import NeedDecision, Question
from pbem.hammer.rules.draws import draw_stream
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.rules.hidden import PREFIX, Resolver, block_of, handle_number, index_of, noble_label, resolving, reveal
from pbem.hammer.rules.log import LogEntry, Seen
from pbem.hammer.rules.scenario import LEVY, edward_barred
from pbem.hammer.rules.state import OFF_MAP, POOL, BlockState, GameState, Turn
from pbem.hammer.rules.victory import check_end_of_scenario, noble_counts
from pbem.hammer.rules.winter import (
    ENGLISH_BUILDABLE,
    FRENCH,
    FRENCH_NOBLES,
    KEEP,
    MORAY,
    NORSE,
    WALLACE,
    WALLACE_GAIN,
    counts_this_winter,
    english_disbanding,
    levy_size,
    nobles_home,
    plan_decider,
    replacement_points,
    scottish_disbanding,
    scottish_king,
)

STAGES = ("england", "scotland", "builds")
RULE = "7.0: the winter reads the owner's blocks"
COASTAL_ONLY = (NORSE, FRENCH)  # never drawn for an inland area (7.62)
CHOICES = {"7.1": "moray", "7.2": "king", "7.5": "wallace"}  # the choices the refereed log shows (PUBLIC)


def stage(public: Mapping[str, Any]) -> str:
    return str(public.get("winter", {}).get("stage", STAGES[0]))


def owes(public: Mapping[str, Any]) -> dict[str, str]:
    st = stage(public)
    return {s: "winter" for s in SIDES if st in (s, "builds")}


# --- the owner's true blocks -----------------------------------------------------------------------

def truth(public: Mapping[str, Any], side: str, facts: Facts) -> tuple[GameState, dict[str, str]]:
    """The game with ``side``'s blocks by their true names and strengths (the other side's stay handles),
    and name -> the key the public state gives it. Raises ``NeedReveal`` where a fact is hidden from here."""
    g = GameState.from_dict(public["game"])
    win = public.get("winter", {})
    blocks: dict[str, BlockState] = {}
    keys: dict[str, str] = {}
    resolver = Resolver(facts, public["seen"], public["unseen_nobles"])
    for key, b in g.blocks.items():
        name = key
        if b.owner == side and key.startswith(PREFIX):
            name, sealed = block_of(resolver.fact(key, RULE))
            strength = b.strength
            if b.location in board().areas:
                strength = 1 if key in win.get("drawn", {}) else wintered(
                    name, b.strength or (sealed or spec(name).steps) - int(public.get("damage", {}).get(key, 0)), win)
            b = BlockState(b.owner, b.location, strength)
        if b.owner == side:
            keys[name] = key
        blocks[name] = b
    g.blocks = blocks
    return g, keys


def wintered(name: str, strength: int, win: Mapping[str, Any]) -> int:
    """A block's strength as the builds find it: Wallace wintering in Selkirk gains steps (7.5)."""
    if name == WALLACE and win.get("wallace") == "selkirk":
        return min(spec(WALLACE).steps, strength + WALLACE_GAIN)
    return strength


def sealed_map(public: Mapping[str, Any], orders: Mapping[str, Any]) -> dict[str, Any]:
    """What the builds make public that a later reveal of their handles is checked against (7.6; peer_reveal.py):
    per side the winter's year, where each new handle was sealed, how many nobles it claims among them, the
    blocks whose strength before the builds is public (seen on the map: area and strength) and per area the RPs
    its handles may use (less the draws made there and the steps its blocks named openly took)."""
    g = GameState.from_dict(public["game"])
    win = public.get("winter", {})
    out: dict[str, Any] = {}
    for side in SIDES:
        order = orders[side]
        before = {public["seen"][k]: [b.location, wintered(public["seen"][k], b.strength, win)]
                  for k, b in sorted(g.blocks.items())
                  if b.owner == side and k in public["seen"] and b.location in board().areas}
        rps = {}
        for area, n in replacement_points(g, side).items():
            named = sum(s - g.blocks[k].strength for k, s in order.get("named", {}).items()
                        if g.blocks[k].location == area)
            drawn = sum(1 for a in win.get("drawn", {}).values() if a == area and side == "scotland")
            rps[area] = max(n - drawn - named, 0)
        out[side] = {"year": g.year, "nobles": int(order["nobles"]), "before": dict(sorted(before.items())),
                     "rps": dict(sorted(rps.items())),
                     "handles": {h: a for a, labels in sorted(order["rekey"]["areas"].items()) for h in labels}}
    return out


class _ClaimDecider:
    """Answers the winter's questions as a side's claims say (the check of the claims, 7.1-7.5)."""

    def __init__(self, claims: Mapping[str, Any], keys: Mapping[str, str]) -> None:
        self.claims, self.keys = claims, keys

    def _to(self, name: str) -> str:
        return str(self.claims.get("moves", {}).get(self.keys.get(name, name), ""))

    def decide(self, q: Question) -> str:
        choice = self.claims.get("choices", {})
        want: list[str] = []
        if q.kind == "winter_home":
            want = [self._to(str(q.context.get("noble", "")))]
        elif q.kind in ("winter_moray", "winter_king", "winter_wallace"):
            want = [str(choice.get(q.kind[7:], ""))]
        elif q.kind == "winter_edward":
            want = ["winter" if self.claims.get("edward") else "disband"]
        elif q.kind == "winter_edward_company":
            want = ["disband" if self._to(str(q.context.get("block", ""))) == POOL else "stay"]
        elif q.kind in ("winter_disband", "winter_release"):
            want = [o for o in q.options if self._to(o) == POOL] + [KEEP]
        return next((w for w in want if w in q.options), q.options[0])


def _play(public: Mapping[str, Any], side: str, facts: Facts, decider: Any) -> tuple[GameState, dict[str, Any]]:
    """The side's part of the stage on its true blocks: the game after it and its claims."""
    g, keys = truth(public, side, facts)
    before = {n: (b.location, b.owner) for n, b in g.blocks.items() if n in keys}
    log: list[LogEntry] = []
    with resolving(Resolver(facts, public["seen"], public["unseen_nobles"])):
        try:
            if side == "england":
                log += nobles_home(g, None, decider, ("england",))
                log += english_disbanding(g, None, decider)
            else:
                log += nobles_home(g, None, decider, ("scotland",))
                log += scottish_king(g, None, decider)
                log += scottish_disbanding(g, None, decider)
        except NeedDecision as q:
            raise IllegalOrder(f"winter plan of {side}: {q.question.kind} asks a choice the plan leaves open "
                               f"({', '.join(q.question.options)}) ({q.question.rule})") from None
    claims: dict[str, Any] = {
        "moves": {keys[n]: g.blocks[n].location for n in sorted(before) if g.blocks[n].location != before[n][0]},
        "defect": sorted(keys[n] for n in before if g.blocks[n].owner != before[n][1]),
        "choices": {CHOICES[str(e.facts["step"])]: str(e.facts["choice"]) for e in log
                    if e.visibility.seen is Seen.PUBLIC and "choice" in e.facts and str(e.facts["step"]) in CHOICES},
    }
    if side == "england":
        claims["edward"] = (g.winter.edward or "") if g.winter is not None else ""
    return g, claims


# --- the owner's client: a draft (a refereed [winter] plan, docs/orders.md) into the order it commits ---

def prepare(public: dict[str, Any], side: str, draft: Any, own: Mapping[str, Any], hide: Any) -> dict[str, Any]:
    """The order this side commits for the stage: its claims from its plan on its true blocks, and what it
    seals (its pool again; at the builds, every block on the map with its strength) behind fresh handles."""
    draft = draft if isinstance(draft, dict) else {}
    plan = draft.get("plan", {})
    facts = Facts({}, {}, own)
    rng = Drbg(os.urandom(32))  # the owner's own randomness: which new handle hides which block
    nxt = next_label(public, side)
    if stage(public) == "builds":
        g, keys = truth(public, side, facts)
        steps = _steps(public, g, side, plan)
        areas: dict[str, list[str]] = {}
        seal: dict[str, str] = {}
        labels_of: dict[str, str] = {}
        for area, names in _on_map(g, keys, side).items():
            for name in rng.shuffled(names):
                label = f"{PREFIX}{side}.{nxt}"
                nxt += 1
                labels_of[label] = name
                areas.setdefault(area, []).append(label)
                seal[label] = hide(label, {"block": name, "strength": steps.get(name, g.blocks[name].strength)})
        named = {n: s for n, s in sorted(steps.items()) if keys.get(n) == n}
        behind = {fact_name: label for label, fact_name in labels_of.items()}
        index = {noble_label(side, n, g.year + 1): hide(noble_label(side, n, g.year + 1), behind[n])
                 for n in sorted(behind) if spec(n).is_noble}
        return {"rekey": {"areas": areas}, "named": named, "nobles": len(index), "seal": seal, "index": index}
    g, claims = _play(public, side, facts, plan_decider(side, plan))
    if side == "scotland":
        claims["draws"] = _draws(public, g, claims, plan)
    pool = _pool_after(public, g, side, claims)
    plain = [n for n in pool if n not in COASTAL_ONLY or side != "scotland"]
    coastal = [n for n in pool if n not in plain]
    rekey: dict[str, list[str]] = {"pool": [], "coastal": []}
    seal = {}
    for part, names in (("pool", plain), ("coastal", coastal)):
        for name in rng.shuffled(names):
            label = f"{PREFIX}{side}.{nxt}"
            nxt += 1
            rekey[part].append(label)
            seal[label] = hide(label, name)
    return {"claims": claims, "rekey": rekey, "seal": seal}


def _on_map(g: GameState, keys: Mapping[str, str], side: str) -> dict[str, list[str]]:
    """The side's blocks on the map that stand behind handles, by area (the ones the builds seal again)."""
    out: dict[str, list[str]] = {}
    for name, key in sorted(keys.items()):
        b = g.blocks[name]
        if key.startswith(PREFIX) and b.owner == side and b.location in board().areas:
            out.setdefault(b.location, []).append(name)
    return dict(sorted(out.items()))


def _pool_after(public: Mapping[str, Any], g: GameState, side: str, claims: Mapping[str, Any]) -> list[str]:
    """The blocks the side seals into its pool: its pool's blocks behind handles after the stage, and the
    French Knights when they join the Scots' (7.61); a block the rules name openly (the King, an Edward an
    E# bid shows) stays open."""
    keys = truth_keys(public, side, g)
    pool = [n for n, b in g.blocks.items() if b.owner == side and b.location == POOL and keys.get(n, n) != n]
    if side == "scotland" and french_join(public, claims):
        pool.append(FRENCH)
    return sorted(pool)


def truth_keys(public: Mapping[str, Any], side: str, g: GameState) -> dict[str, str]:
    """name -> public key of the side's blocks in ``g`` (a true game of ``truth``): a block named openly is
    its own key; one behind a handle is not."""
    named = set(public["game"]["blocks"])
    return {n: (n if n in named else PREFIX) for n, b in g.blocks.items() if b.owner == side}


def french_join(public: Mapping[str, Any], claims: Mapping[str, Any]) -> bool:
    """Whether the French Knights join the Scottish pool this winter (7.61): off the map, and the Scots
    control 8 nobles or more once the claims are played, by the public count (every client the same)."""
    g = apply_claims(public, "scotland", claims, None)[0]
    french = g.blocks.get(FRENCH)
    if french is None or french.location != OFF_MAP:
        return False
    with resolving(Resolver(Facts({}, {}), public["seen"], _nobles_after(public, "scotland", claims))):
        return noble_counts(g)["scotland"] >= FRENCH_NOBLES


def _draws(public: Mapping[str, Any], g: GameState, claims: Mapping[str, Any],
           plan: Mapping[str, Any]) -> dict[str, int]:
    """The Scots' draws per area (7.62): as many "draw" as the plan's builds list for the area, else every
    one the area's RPs and Castle Limit allow while the pool lasts (the refereed default, the first option)."""
    after = apply_claims(public, "scotland", claims, None)[0]
    left = len(_pool_after(public, g, "scotland", claims))
    wanted = plan.get("builds", {})
    out: dict[str, int] = {}
    for area, rps in replacement_points(after, "scotland").items():
        room = board().area(area).castle_limit("scotland") - len(after.blocks_in(area, "scotland"))
        n = min(rps, room, left)
        if area in wanted:
            n = min(n, sum(1 for e in wanted[area] if e == "draw"))
        if n > 0:
            out[area] = n
            left -= n
    return out


def _steps(public: Mapping[str, Any], g: GameState, side: str, plan: Mapping[str, Any]) -> dict[str, int]:
    """Each block's strength after the side's steps (7.62, 7.63): per friendly area its RPs less the draws
    made there, one step per RP, as the plan's builds list them, else on the first block that can take one."""
    drawn = public.get("winter", {}).get("drawn", {})
    wanted = plan.get("builds", {})
    out: dict[str, int] = {}
    for area, rps in replacement_points(g, side).items():
        left = rps - sum(1 for a in drawn.values() if a == area and side == "scotland")
        queue = [e[5:] for e in wanted.get(area, []) if e.startswith("step:")] if area in wanted else None
        while left > 0:
            can = [n for n in g.blocks_in(area, side) if _buildable(n, side)
                   and out.get(n, g.blocks[n].strength) < spec(n).steps]
            if not can:
                break
            if queue is not None:
                while queue and queue[0] not in can:
                    queue.pop(0)
                if not queue:
                    break
                name = queue.pop(0)
            else:
                name = can[0]
            out[name] = out.get(name, g.blocks[name].strength) + 1
            left -= 1
    return out


def _buildable(name: str, side: str) -> bool:
    return side == "scotland" or spec(name).type in ENGLISH_BUILDABLE


# --- the public state: claims and seals applied --------------------------------------------------------

def next_label(public: Mapping[str, Any], side: str) -> int:
    """The number of the side's next new handle: past every ``hidden.SIDE.n`` the record has used."""
    used = [int(k.split(".")[2]) for k in [*public["game"]["blocks"], *public["seen"]]
            if k.startswith(f"{PREFIX}{side}.")]
    return max([int(public.get("next_label", {}).get(side, 0)), *(n + 1 for n in used)])


def _nobles_after(public: Mapping[str, Any], side: str, claims: Mapping[str, Any]) -> dict[str, int]:
    """``unseen_nobles`` after the claims: an unseen Moray who disbands leaves the count (7.1)."""
    out = dict(public["unseen_nobles"])
    if claims.get("choices", {}).get("moray") == "disband" and MORAY not in public["seen"].values():
        out["scotland"] -= 1
    return out


def apply_claims(public: Mapping[str, Any], side: str, claims: Mapping[str, Any],
                 resolver: Resolver | None) -> tuple[GameState, list[dict[str, Any]]]:
    """The public game after a side's claims: defectors revealed (they change sides, 7.1) and moved, the
    disbanded in the pool at strength 0, Edward's camp (7.4); the public log lines."""
    g = GameState.from_dict(public["game"])
    log: list[dict[str, Any]] = []
    if resolver is not None:
        defectors = [k for k in claims.get("defect", []) if k.startswith(PREFIX)]
        reveal(g, defectors, "7.1: a noble defects")
        if defectors:
            log.append({"what": "reveal", "rule": "7.1", "blocks": [{"block": k, "strength": g.blocks[k].strength}
                                                                    for k in sorted(defectors)]})
    for key in claims.get("defect", []):
        g.blocks[key].owner = "scotland" if g.blocks[key].owner == "england" else "england"
    for key, where in sorted(claims.get("moves", {}).items()):
        g.blocks[key].location = where
        if where == POOL:
            g.blocks[key].strength = 0
        log.append({"what": "winter", "step": "7.1-7.5", "block": key, "to": where})
    for what, choice in sorted(claims.get("choices", {}).items()):
        log.append({"what": "winter", "step": {v: k for k, v in CHOICES.items()}[what], what: choice})
    if claims.get("edward"):
        g.edward_wintered = g.year
        log.append({"what": "winter", "step": "7.4", "edward": g.edward, "wintering": claims["edward"]})
    return g, log


def _rekey_pool(g: GameState, side: str, labels: list[str]) -> None:
    for key in [k for k, b in g.blocks.items() if b.owner == side and b.location == POOL and k.startswith(PREFIX)]:
        del g.blocks[key]
    for label in labels:
        g.blocks[label] = BlockState(side, POOL, 0)


def adjudicate(public: dict[str, Any], orders: Mapping[str, Any], facts: Facts, rng: Any) -> PeerStep:
    """One round of the winter on the public state."""
    st = stage(public)
    win = dict(public.get("winter", {}))
    out = dict(public)
    if st != "builds":
        order = orders[st]
        resolver = Resolver(facts, public["seen"], _nobles_after(public, st, order["claims"]), public.get("damage"))
        with resolving(resolver):
            g, log = apply_claims(public, st, order["claims"], resolver)
            win.update({"stage": STAGES[STAGES.index(st) + 1]})
            if st == "scotland":
                win["wallace"] = order["claims"].get("choices", {}).get("wallace", "")
                if counts_this_winter(g):  # 9.0 after 7.5, from the public count of nobles
                    check_end_of_scenario(g)
                    log.append({"what": "winter", "step": "9.0", "winner": g.winner, "reason": g.win_reason})
                    if g.winner:
                        g.phase = "over"
            if not g.winner:
                if st == "scotland" and french_join(public, order["claims"]):
                    del g.blocks[FRENCH]  # into the pool, behind one of the handles sealed now
                    log.append({"what": "winter", "step": "7.61", "french_knights": "pool"})
                _rekey_pool(g, st, [*order["rekey"]["pool"], *order["rekey"]["coastal"]])
                if st == "scotland":
                    win["drawn"] = _draw(g, order, rng, log)
        seen = {k: v for k, v in sorted(resolver.seen.items())}
        out.update({"game": g.to_dict(), "seen": seen, "unseen_nobles": resolver.unseen_nobles, "winter": win})
        if "damage" in public:  # a handle gone to the pool is gone, whatever it had lost (a nobles' move keeps it)
            out["damage"] = {k: v for k, v in sorted(resolver.damage.items()) if k in g.blocks}
        out["next_label"] = {**public.get("next_label", {}), st: next_label(public, st) + len(order["seal"])}
        return PeerStep(out, log)
    g = GameState.from_dict(public["game"])
    log = []
    builds = sealed_map(public, orders)
    nobles = dict(public["unseen_nobles"])
    labels = dict(public.get("next_label", {}))
    for side in SIDES:
        order = orders[side]
        mine = [k for k, b in g.blocks.items()
                if b.owner == side and k.startswith(PREFIX) and b.location in board().areas]
        nobles[side] = int(order["nobles"])  # how many of the blocks sealed now are nobles (9.0, 9.1): public
        for k in mine:
            del g.blocks[k]
        for area, new in order["rekey"]["areas"].items():
            for label in new:
                g.blocks[label] = BlockState(side, area, 0)
        for name, strength in order.get("named", {}).items():
            g.blocks[name].strength = strength
        labels[side] = next_label(public, side) + len(order["seal"])
        log.append({"what": "winter", "step": "7.6", "side": side, "sealed": len(order["seal"])})
    log += _levy(g, win, rng)
    log += [line.facts | {"what": line.what} for line in kings.end_of_1306(g)]
    g.year += 1  # the noble index sealed with the builds is this year's (3.12)
    g.turn, g.current, g.phase, g.winter = 0, Turn(), "card", None
    g.hands, g.deck, g.played = {s: [] for s in SIDES}, [], {s: [] for s in SIDES}
    log.append({"what": "new_year", "year": g.year})
    out = {k: v for k, v in public.items() if k not in ("winter", "damage")}  # new handles hold their strengths
    seen = {k: v for k, v in sorted(public["seen"].items()) if k in g.blocks}
    out.update({"game": g.to_dict(), "seen": seen, "unseen_nobles": nobles, "next_label": labels,
                "noble_index": {s: g.year for s in SIDES}, "builds": builds})
    return PeerStep(out, log)


def _draw(g: GameState, order: Mapping[str, Any], rng: Any, log: list[dict[str, Any]]) -> dict[str, str]:
    """The Scots' draws (7.62): each a handle of the pool just sealed, picked by the joint stream (the Norse
    and the French Knights, sealed apart, only for a coastal area)."""
    plain, coastal = list(order["rekey"]["pool"]), list(order["rekey"]["coastal"])
    drawn: dict[str, str] = {}
    for area, n in sorted(order["claims"].get("draws", {}).items()):
        for i in range(n):
            cands = sorted(h for h in plain + (coastal if board().area(area).coastal else []) if h not in drawn)
            if not cands:
                break
            label = cands[draw_stream(rng, f"7.62:{area}:{i + 1}").randbelow(len(cands))]
            drawn[label] = area
            g.blocks[label] = BlockState("scotland", area, 0)
        log.append({"what": "winter", "step": "7.62", "area": area, "drawn": n})
    return drawn


def _levy(g: GameState, win: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The Feudal Levy (7.7): half England's pool, handles picked by the joint stream, into England."""
    if win.get("edward"):
        return [{"what": "winter", "step": "7.7", "levy": 0, "why": "Edward I winters in Scotland (7.4)"}]
    eligible = [n for n in g.pool("england") if not (n == "Edward" and edward_barred(g, g.year + 1))]
    drawn = draw_stream(rng, LEVY).shuffled(sorted(eligible))[:levy_size(g)]
    for key in drawn:
        g.blocks[key] = BlockState("england", ENGLAND, 0 if key.startswith(PREFIX) else spec(key).steps)
    return [{"what": "winter", "step": "7.7", "levy": len(drawn), "drawn": sorted(drawn)}]


# --- the record's checks ------------------------------------------------------------------------------

def sealed(public: Mapping[str, Any], side: str, order: Any) -> dict[str, str]:
    """A winter order's new handles and, with the builds, its noble index of those handles (3.12, 7.6)."""
    if not isinstance(order, dict) or side not in owes(public):
        return {}
    index = order.get("index", {}) if stage(public) == "builds" else {}
    return {**dict(order.get("seal", {})), **(dict(index) if isinstance(index, dict) else {})}


def _indexes(label: Any, side: str, year: int) -> bool:
    """Whether ``label`` is ``side``'s noble index entry for a noble, sealed with this winter's builds (3.12)."""
    noble, at = (index_of(label) if isinstance(label, str) else None) or ("", None)
    return at == year and noble in blocks() and spec(noble).is_noble and label == noble_label(side, noble, year)


def foresee(public: Mapping[str, Any], side: str, order: Any) -> list[str]:
    """A defector changes sides in the open (7.1): its handle opens with the order."""
    claims = order.get("claims", {}) if isinstance(order, dict) else {}
    return sorted(k for k in claims.get("defect", []) if k.startswith(f"{PREFIX}{side}.") and k not in public["seen"])


def _bad(side: str, why: str, rule: str) -> IllegalOrder:
    return IllegalOrder(f"winter order of {side}: {why} ({rule})", rule=rule)


def check(public: dict[str, Any], side: str, order: Any, facts: Facts) -> None:
    """The order's shape and public part at once; its claims and seals against the side's true blocks as far
    as ``facts`` tell (``NeedReveal`` elsewhere: on the owner's client, and at the final audit, all of them)."""
    st = stage(public)
    want_keys = ["index", "named", "nobles", "rekey", "seal"] if st == "builds" else ["claims", "rekey", "seal"]
    if not isinstance(order, dict) or sorted(order) != want_keys:
        raise InvalidOrder(f"winter order of {side}: the {st} round's order holds {', '.join(want_keys)} "
                           "(docs/hammer-peer.md)")
    _shape(public, side, order)
    nxt = next_label(public, side)
    if st == "builds":
        g = GameState.from_dict(public["game"])
        counts = {a: len([k for k in g.blocks_in(a, side) if k.startswith(PREFIX)]) for a in board().areas}
        areas = order["rekey"].get("areas", {})
        if {a: len(v) for a, v in areas.items()} != {a: n for a, n in counts.items() if n}:
            raise _bad(side, "it does not seal each of its blocks on the map once, where it stands", "7.6")
        labels = [label for a in sorted(areas) for label in areas[a]]
    else:
        pool = order["rekey"]
        labels = [*pool.get("pool", []), *pool.get("coastal", [])]
        after = apply_claims(public, side, order["claims"], None)[0]
        want = sum(1 for k, b in after.blocks.items()
                   if b.owner == side and b.location == POOL and k.startswith(PREFIX))
        if len(labels) != want + (side == "scotland" and french_join(public, order["claims"])):
            raise _bad(side, f"it seals {len(labels)} blocks into its pool, which holds {want} behind handles", "7.6")
    if sorted(labels, key=handle_number) != [f"{PREFIX}{side}.{n}" for n in range(nxt, nxt + len(labels))] \
            or sorted(order["seal"]) != sorted(labels):
        raise _bad(side, f"its new handles are not {PREFIX}{side}.{nxt} on, each sealed once", "7.6")
    if st == "builds":
        _check_builds(public, side, order, facts)
    else:
        _check_claims(public, side, order, facts)


def _strs(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _shape(public: Mapping[str, Any], side: str, order: Mapping[str, Any]) -> None:
    """Every field of a winter order of the type it must have, naming blocks of the side (one sentence, no
    traceback, for whatever a cheat or a broken client sends)."""
    g = GameState.from_dict(public["game"])
    rekey, seal = order["rekey"], order["seal"]
    ok = isinstance(rekey, dict) and isinstance(seal, dict) and all(isinstance(v, str) for v in seal.values())
    if stage(public) == "builds":
        named, nobles, index = order["named"], order["nobles"], order["index"]
        year = int(public["game"]["year"]) + 1
        ok = ok and isinstance(index, dict) and all(_indexes(label, side, year) and isinstance(v, str) and len(v) == 64
                                                    for label, v in index.items()) \
            and isinstance(nobles, int) and nobles == len(index) \
            and sorted(rekey) == ["areas"] and isinstance(rekey["areas"], dict) \
            and all(a in board().areas and _strs(v) for a, v in rekey["areas"].items()) \
            and isinstance(nobles, int) and not isinstance(nobles, bool) and nobles >= 0 \
            and isinstance(named, dict) and all(n in g.blocks and not n.startswith(PREFIX) and g.blocks[n].owner == side
                                                and g.blocks[n].location in board().areas and isinstance(v, int)
                                                for n, v in named.items())
    else:
        claims = order["claims"]
        ok = ok and sorted(rekey) == ["coastal", "pool"] and _strs(rekey["pool"]) and _strs(rekey["coastal"]) \
            and isinstance(claims, dict) and isinstance(claims.get("moves", {}), dict) \
            and all(k in g.blocks and g.blocks[k].owner == side and isinstance(v, str)
                    and (v == POOL or v in board().areas) for k, v in claims.get("moves", {}).items()) \
            and _strs(claims.get("defect", [])) \
            and all(k in g.blocks and g.blocks[k].owner == side for k in claims.get("defect", [])) \
            and isinstance(claims.get("choices", {}), dict) and (side == "scotland" or not claims.get("choices")) \
            and all(k in CHOICES.values() and isinstance(v, str) for k, v in claims.get("choices", {}).items()) \
            and claims.get("edward", "") in ("", *board().areas) and ("edward" in claims) == (side == "england") \
            and ("draws" not in claims or side == "scotland") \
            and isinstance(claims.get("draws", {}), dict) and all(a in board().areas for a in claims.get("draws", {}))
    if not ok:
        raise InvalidOrder(f"winter order of {side}: a field is not of its type or names no block of {side} "
                           "(docs/hammer-peer.md)")


def _check_claims(public: dict[str, Any], side: str, order: Mapping[str, Any], facts: Facts) -> None:
    claims = order["claims"]
    if not isinstance(claims, dict) or set(claims) - {"moves", "defect", "choices", "edward", "draws"}:
        raise InvalidOrder(f"winter order of {side}: claims hold moves, defect, choices, edward, draws "
                           "(docs/hammer-peer.md)")
    if side == "scotland":
        after = apply_claims(public, side, claims, None)[0]
        rps = replacement_points(after, side)
        for area, n in claims.get("draws", {}).items():
            room = board().area(area).castle_limit(side) - len(after.blocks_in(area, side)) if area in rps else 0
            if not isinstance(n, int) or not 0 < n <= min(rps.get(area, 0), room):
                raise _bad(side, f"{n!r} draws in {area}: a draw uses an RP of a friendly area, within its Castle "
                           "Limit", "7.62")
    g2, honest = _play(public, side, facts, _ClaimDecider(claims, truth(public, side, facts)[1]))
    if side == "scotland":
        honest["draws"] = claims.get("draws", {})
    if honest != claims:
        raise _bad(side, f"its claims {claims} are not what the winter makes of its blocks ({honest})", "7.1-7.5")
    pool = _pool_after(public, g2, side, claims)
    rekey = order["rekey"]
    hidden = {label: block_of(facts.get(label, "7.6: a sealed pool"))[0]
              for label in [*rekey["pool"], *rekey["coastal"]]}
    if sorted(hidden.values()) != pool or any((hidden[k] in COASTAL_ONLY) != (k in rekey["coastal"]) for k in hidden):
        raise _bad(side, "its sealed pool is not its pool after the winter (the Norse and the French Knights "
                   "apart)", "7.62, 7.7")


def _check_index(public: Mapping[str, Any], side: str, order: Mapping[str, Any], facts: Facts) -> None:
    """The noble index sealed with the builds: each noble among the blocks sealed now, behind the new handle that
    hides him (a Herald asks by it next year, 3.12)."""
    year = int(public["game"]["year"]) + 1
    new = {label for labels in order["rekey"]["areas"].values() for label in labels}
    said = sorted((index_of(label) or ("", None))[0] for label in order["index"])
    for noble in said:
        handle = facts.get(noble_label(side, noble, year), "3.12: a noble index sealed at the winter")
        if handle not in new or block_of(facts.get(handle, "7.6: a sealed block"))[0] != noble:
            raise _bad(side, f"its noble index puts {noble} behind {handle!r}, which does not hide him", "3.12, 7.6")
    names = [block_of(facts.get(label, "7.6: a sealed block"))[0] for label in sorted(new)]
    indexed = sorted(n for n in names if spec(n).is_noble)
    if indexed != said:
        raise _bad(side, "its noble index does not name each noble among the blocks it seals", "3.12, 7.6")


def _check_builds(public: dict[str, Any], side: str, order: Mapping[str, Any], facts: Facts) -> None:
    """Each block sealed where it stood, at its strength or more, no more than its steps; per friendly area at
    most its RPs (less the draws made there) of steps; English steps only on infantry and nobles (7.6)."""
    g, keys = truth(public, side, facts)
    before = _on_map(g, keys, side)
    now: dict[str, list[tuple[str, int]]] = {}
    for area, labels in order["rekey"]["areas"].items():
        for label in labels:
            name, strength = block_of(facts.get(label, "7.6: a sealed block"))
            now.setdefault(area, []).append((name, strength))
    named = order.get("named", {})
    if order["nobles"] != sum(spec(n).is_noble for blocks in now.values() for n, _ in blocks):
        raise _bad(side, f"it counts {order['nobles']} nobles among the blocks it seals, which is not so", "9.0, 9.1")
    _check_index(public, side, order, facts)
    rps = replacement_points(g, side)
    drawn = public.get("winter", {}).get("drawn", {})
    for area in sorted(set(before) | set(now) | {g.blocks[n].location for n in named if n in g.blocks}):
        if sorted(n for n, _ in now.get(area, [])) != sorted(before.get(area, [])):
            raise _bad(side, f"the blocks it seals in {area} are not the blocks it has there", "7.6")
        gains = [(n, s) for n, s in now.get(area, [])] + [(n, s) for n, s in named.items()
                                                           if n in g.blocks and g.blocks[n].location == area]
        used = 0
        for name, strength in gains:
            old = g.blocks[name].strength if name in g.blocks else 0
            if not old <= strength <= spec(name).steps or (strength > old and not _buildable(name, side)):
                raise _bad(side, f"{name} in {area} at strength {strength} (it had {old})", "7.6, 7.63")
            used += strength - old
        spare = rps.get(area, 0) - sum(1 for a in drawn.values() if a == area and side == "scotland")
        if used > max(spare, 0):
            raise _bad(side, f"{used} steps in {area}, which gives {max(spare, 0)} RPs", "7.6")
