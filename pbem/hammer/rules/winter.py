"""The Winter Turn (7.0-7.8), in the rules' exact order, every choice a ``Question``.

Order: 7.1 nobles home (English, then Scots; Bruce and Comyn 7.12; Moray), 7.2 the Scottish
King, 7.3/7.4 English disbanding and Edward's wintering, 7.5 Scottish disbanding (Wallace to
Selkirk first), 7.6 builds (7.61 the French Knights, 7.63 English, 7.62 Scottish), 7.7 the
Feudal Levy, 7.8 Edward I→II after 1306, the year turns and new hands are dealt.

Resumable: each sub-step runs on a copy and is committed whole, its name recorded in
``state.winter.done`` (winter_progress.py); a ``NeedDecision`` inside a sub-step leaves the
state (and a stream with a ``position``) as they were before it, so calling ``winter`` again
with the answers carries on. The question kinds and options are listed in docs/orders.md ("Winter").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from pbem.hammer.rules import kings, sofar
from pbem.hammer.rules.blocks import SIDES, blocks, other_side, spec
from pbem.hammer.rules.board import ENGLAND, board
from pbem.hammer.rules.cardphase import start_year
from pbem.hammer.rules.decisions import Decider, NeedDecision, Question, checked
from pbem.hammer.rules.draws import Draw, draw_stream
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.rules.log import PRIVATE, PUBLIC, LogEntry, Plain, Visibility
from pbem.hammer.rules.scenario import dealt_lines, levy_draw, scenario
from pbem.hammer.rules.state import OFF_MAP, POOL, BlockState, GameState
from pbem.hammer.rules.suggest import did_you_mean
from pbem.hammer.rules.victory import check_end_of_scenario
from pbem.hammer.rules.winter_progress import WinterProgress

Log = list[LogEntry]
MORAY, KING, EDWARD, WALLACE, FRENCH, NORSE = "Moray", "King", "Edward", "Wallace", "French Knights", "Norse"
SELKIRK = "Selkirk"
WALLACE_GAIN = 2        # 7.5
FRENCH_NOBLES = 8       # 7.61
EDWARD_NO_WINTER_YEAR = 1306  # 7.4
ENGLISH_MUST_DISBAND = ("knights", "archers", "hobelars")  # 7.31
ENGLISH_BUILDABLE = ("infantry", "noble")                   # 7.63
KEEP = "keep"


def _ask(decider: Decider, side: str, kind: str, options: list[str], rule: str, **context: Any) -> str:
    """Ask only when there is a choice; a single option is taken without asking."""
    if len(options) == 1:
        return options[0]
    return checked(decider, Question(side=side, kind=kind, options=tuple(options), context=context, rule=rule))


def _disband(state: GameState, name: str) -> None:
    state.blocks[name] = BlockState(state.blocks[name].owner, POOL, 0)


def _line(actor: str, visibility: Visibility, **facts: Plain) -> LogEntry:
    """A winter log line: a side's own (PRIVATE), or everyone's (PUBLIC, naming no side: actor "")."""
    return LogEntry("winter", actor, visibility, facts)


def _progress(state: GameState) -> WinterProgress:
    """The Winter Turn's record, begun at its first use."""
    if state.winter is None:
        state.winter = WinterProgress()
    return state.winter


# --- 7.1 / 7.12 nobles go home -----------------------------------------------------------------

def nobles_home(state: GameState, rng: Any, decider: Decider, sides: tuple[str, ...] = SIDES) -> Log:
    """English nobles first, then Scottish: home, or defect if home is enemy-occupied (7.1, 7.12).
    ``sides``: the sides whose nobles go home now (with no referee each side states its own, in turn)."""
    log: Log = []
    gone_home: set[str] = set()
    with sofar.writing(log):
        for side in sides:
            for name in state.nobles_of(side):
                if name in gone_home or state.blocks[name].owner != side or name == MORAY:
                    continue
                gone_home.add(name)
                log += _noble_home(state, name, side, decider)
        if "scotland" in sides and state.on_map(MORAY) and state.blocks[MORAY].owner == "scotland":
            log += _moray(state, decider)  # the Exception, once every other noble is home
    return log


def _noble_home(state: GameState, name: str, side: str, decider: Decider) -> Log:
    b = state.blocks[name]
    homes = list(spec(name).homes)
    free = [h for h in homes if not state.is_enemy_occupied(h, side)]
    if free:
        free.sort(key=lambda h: (h != b.location, h))  # staying home is the default
        home = _ask(decider, side, "winter_home", free, "7.12", noble=name, at=b.location)
        b.location = home
        return [_line("", PUBLIC, step="7.1", noble=name, home=home, owner=side)]
    new = other_side(side)  # converted: the new owner picks the home (7.12)
    home = _ask(decider, new, "winter_home", sorted(homes), "7.12", noble=name, at=b.location, converted=True)
    b.location, b.owner = home, new
    return [_line("", PUBLIC, step="7.1", noble=name, home=home, owner=new, defected=True)]


def moray_options(state: GameState) -> list[str]:
    """Moray may go home, remain where he is "subject to Castle Limit", or disband (7.1).

    He remains only where he fits beside the Scottish nobles at home there (nobles never disband,
    so they fill the limit first; other blocks give way at 7.5), and never in England (5.9). The
    limit is met here, where 7.1 puts it, not by disbanding him later at 7.5 (docs/rules-notes.md).
    """
    b = state.blocks[MORAY]
    home = spec(MORAY).homes[0]
    options = []
    if b.location != home and not state.is_enemy_occupied(home, "scotland"):
        options.append("home")
    if b.location != ENGLAND and _room_beside_nobles(state, b.location):
        options.append("stay")
    return options + ["disband"]


def _room_beside_nobles(state: GameState, area: str) -> bool:
    """Whether Moray fits the area's Scottish castle limit beside the Scottish nobles at home there."""
    at_home = [n for n in state.blocks_in(area, "scotland")
               if n != MORAY and spec(n).is_noble and area in spec(n).homes]
    return len(at_home) < board().area(area).castle_limit("scotland")


def _moray(state: GameState, decider: Decider) -> Log:
    choice = _ask(decider, "scotland", "winter_moray", moray_options(state), "7.1", at=state.blocks[MORAY].location)
    if choice == "home":
        state.blocks[MORAY].location = spec(MORAY).homes[0]
    elif choice == "disband":
        _disband(state, MORAY)
    return [_line("", PUBLIC, step="7.1", noble=MORAY, choice=choice)]


# --- 7.2 the Scottish King ------------------------------------------------------------------------

def king_options(state: GameState) -> list[str]:
    """Stay (not in England), any friendly or neutral cathedral, or disband (7.2)."""
    at = state.blocks[KING].location
    options = ["stay"] if at != ENGLAND else []
    options += [a for a in board().area_names() if board().area(a).cathedral and a != at
                and state.control(a) in ("scotland", "neutral")]
    return options + ["disband"]


def scottish_king(state: GameState, rng: Any, decider: Decider) -> Log:
    if not state.on_map(KING) or state.blocks[KING].owner != "scotland":
        return []
    choice = _ask(decider, "scotland", "winter_king", king_options(state), "7.2", at=state.blocks[KING].location)
    if choice == "disband":
        _disband(state, KING)
    elif choice != "stay":
        state.blocks[KING].location = choice
    return [_line("", PUBLIC, step="7.2", block=KING, choice=choice)]


# --- 7.3 / 7.4 English disbanding ---------------------------------------------------------------

def edward_may_winter(state: GameState) -> bool:
    """Edward I, in Scotland, not in 1306, not two winters running (7.4)."""
    b = state.blocks.get(EDWARD)
    return (b is not None and state.on_map(EDWARD) and b.location != ENGLAND and state.edward == "I"
            and state.year != EDWARD_NO_WINTER_YEAR and state.edward_wintered != state.year - 1)


def english_disbanding(state: GameState, rng: Any, decider: Decider) -> Log:
    log: Log = []
    with sofar.writing(log):
        for name in state.blocks_in(ENGLAND, "england"):  # 7.3: everything in England
            if not spec(name).is_noble:
                _disband(state, name)
                log.append(_line("england", PRIVATE, step="7.3", disbanded=name))
        company: set[str] = set()
        camp = ""
        if state.on_map(EDWARD):
            choice = "disband"
            if edward_may_winter(state):
                choice = _ask(decider, "england", "winter_edward", ["disband", "winter"], "7.4",
                              at=state.blocks[EDWARD].location)
            if choice == "winter":
                camp = state.blocks[EDWARD].location
                state.edward_wintered = state.year
                for name in state.blocks_in(camp, "england"):
                    if name == EDWARD or spec(name).is_noble:
                        continue
                    if _ask(decider, "england", "winter_edward_company", ["stay", "disband"], "7.4",
                            block=name, area=camp) == "stay":
                        company.add(name)
                    else:
                        _disband(state, name)
            else:
                _disband(state, EDWARD)
            log.append(_line("", PUBLIC, step="7.4", edward=state.edward, wintering=camp))
        _progress(state).edward = camp
        for name in state.blocks_of("england"):  # 7.31
            if state.on_map(name) and spec(name).type in ENGLISH_MUST_DISBAND and name not in company:
                _disband(state, name)
                log.append(_line("england", PRIVATE, step="7.31", disbanded=name))
        for area in _areas_with(state, "england"):  # 7.32
            if area == camp:
                continue
            infantry = lambda: [n for n in state.blocks_in(area, "england") if spec(n).type == "infantry"]  # noqa: E731
            log += _over_limit(state, "england", area, infantry, decider, "7.32")
            log += _release(state, "england", area, infantry, decider, "7.32")
    return log


def _areas_with(state: GameState, side: str) -> list[str]:
    return sorted({b.location for n, b in state.blocks.items() if b.owner == side and state.on_map(n)})


def _over_limit(state: GameState, side: str, area: str, candidates: Callable[[], list[str]], decider: Decider,
                rule: str, exempt: tuple[str, ...] = ()) -> Log:
    """Blocks over the area's Castle Limit disband, the owner choosing which (7.32, 7.5)."""
    log: Log = []
    limit = board().area(area).castle_limit(side)
    with sofar.writing(log):
        while True:
            present = [n for n in state.blocks_in(area, side) if n not in exempt]
            options = candidates()
            if len(present) <= limit or not options:
                return log
            name = _ask(decider, side, "winter_disband", options, rule, area=area, limit=limit, present=len(present))
            _disband(state, name)
            log.append(_line(side, PRIVATE, step=rule, disbanded=name, area=area))


def _release(state: GameState, side: str, area: str, candidates: Callable[[], list[str]], decider: Decider,
             rule: str) -> Log:
    """Blocks within the limit may still disband by choice ("remain ... or disband", 7.32, 7.5)."""
    log: Log = []
    with sofar.writing(log):
        while True:
            options = candidates()
            if not options:
                return log
            name = checked(decider, Question(side=side, kind="winter_release", options=(KEEP, *options),
                                             context={"area": area}, rule=rule))
            if name == KEEP:
                return log
            _disband(state, name)
            log.append(_line(side, PRIVATE, step=rule, disbanded=name, area=area, chosen=True))


# --- 7.5 Scottish disbanding ----------------------------------------------------------------------

def wallace_options(state: GameState) -> list[str]:
    """Wallace "may" go to Selkirk (unless enemy-occupied) and gain 2 steps; like any Scottish
    block he may also remain (not in England, 5.9) or disband (7.5)."""
    b = state.blocks[WALLACE]
    can_go = not state.is_enemy_occupied(SELKIRK, "scotland")
    options = []
    if b.location != ENGLAND and b.location != SELKIRK:
        options.append("stay")
    if can_go:
        options.insert(0 if b.strength < spec(WALLACE).steps else len(options), "selkirk")
    return options + ["disband"]


def scottish_disbanding(state: GameState, rng: Any, decider: Decider) -> Log:
    log: Log = []
    with sofar.writing(log):
        exempt: tuple[str, ...] = ()
        if state.on_map(WALLACE) and state.blocks[WALLACE].owner == "scotland":
            choice = _ask(decider, "scotland", "winter_wallace", wallace_options(state), "7.5",
                          at=state.blocks[WALLACE].location, strength=state.blocks[WALLACE].strength)
            if choice == "selkirk":
                b = state.blocks[WALLACE]
                b.location = SELKIRK
                b.strength = min(spec(WALLACE).steps, b.strength + WALLACE_GAIN)
                exempt = (WALLACE,)
            elif choice == "disband":
                _disband(state, WALLACE)
            log.append(_line("", PUBLIC, step="7.5", block=WALLACE, choice=choice))
        for name in state.blocks_in(ENGLAND, "scotland"):  # no Scot winters in England (7.5, 5.9)
            if not spec(name).is_noble:  # Moray never stays in England (7.1)
                _disband(state, name)
                log.append(_line("scotland", PRIVATE, step="7.5", disbanded=name, area=ENGLAND))

        for area in _areas_with(state, "scotland"):
            def forced(area: str = area) -> list[str]:  # Moray's limit was met at 7.1
                return [n for n in state.blocks_in(area, "scotland")
                        if not spec(n).is_noble and n not in exempt]

            def free(area: str = area) -> list[str]:
                return [n for n in state.blocks_in(area, "scotland")
                        if not spec(n).is_noble and n != KING]

            log += _over_limit(state, "scotland", area, forced, decider, "7.5", exempt)
            log += _release(state, "scotland", area, free, decider, "7.5")
    return log


# --- 7.6 builds -------------------------------------------------------------------------------------

def replacement_points(state: GameState, side: str) -> dict[str, int]:
    """RPs by friendly area: its Castle Limit for ``side``, a cathedral +1 for the Scots (7.6)."""
    return {a: board().area(a).castle_limit(side) for a in board().area_names()
            if a != ENGLAND and state.is_friendly(a, side) and board().area(a).castle_limit(side) > 0}


def drawable(state: GameState, area: str) -> list[str]:
    """The Scottish pool blocks that may be drawn for ``area``: no Norse or French inland (7.62)."""
    coastal = board().area(area).coastal
    return [n for n in state.pool("scotland") if coastal or n not in (NORSE, FRENCH)]


def builds(state: GameState, rng: Any, decider: Decider) -> Log:
    log: Log = []
    with sofar.writing(log):
        french = state.blocks.get(FRENCH)
        if french is not None and french.location == OFF_MAP and len(state.nobles_of("scotland")) >= FRENCH_NOBLES:
            state.blocks[FRENCH] = BlockState("scotland", POOL, 0)
            log.append(_line("", PUBLIC, step="7.61", french_knights="pool"))
        for area, rps in replacement_points(state, "england").items():  # 7.63
            for rp in range(1, rps + 1):
                steps = [f"step:{n}" for n in state.blocks_in(area, "england")
                         if spec(n).type in ENGLISH_BUILDABLE and state.blocks[n].strength < spec(n).steps]
                if not steps:
                    break
                choice = _ask(decider, "england", "winter_build", steps + ["pass"], "7.63", area=area, rp=rp, of=rps)
                if choice == "pass":
                    break
                state.blocks[choice[5:]].strength += 1
                log.append(_line("england", PRIVATE, step="7.63", area=area, built=choice[5:]))
        for area, rps in replacement_points(state, "scotland").items():  # 7.62
            limit = board().area(area).castle_limit("scotland")
            for rp in range(1, rps + 1):
                options = []
                pool = drawable(state, area)
                if pool and len(state.blocks_in(area, "scotland")) < limit:
                    options.append("draw")
                options += [f"step:{n}" for n in state.blocks_in(area, "scotland")
                            if state.blocks[n].strength < spec(n).steps]
                if not options:
                    break
                choice = _ask(decider, "scotland", "winter_build", options + ["pass"], "7.62", area=area, rp=rp, of=rps)
                if choice == "pass":
                    break
                if choice == "draw":
                    draw = Draw(tuple(pool), f"7.62:{area}:{rp}")
                    name = pool[draw_stream(rng, draw.label).randbelow(len(pool))]
                    state.blocks[name] = BlockState("scotland", area, 1)
                    log.append(_line("scotland", PRIVATE, step="7.62", area=area, drawn=name, **draw.facts()))
                else:
                    state.blocks[choice[5:]].strength += 1
                    log.append(_line("scotland", PRIVATE, step="7.62", area=area, built=choice[5:]))
    return log


# --- 7.7 the Feudal Levy, 7.8 new year ------------------------------------------------------------

def levy_size(state: GameState) -> int:
    """Half the English Draw Pool, rounded up; a barred Edward still counts (7.7, 9.2)."""
    return (len(state.pool("england")) + 1) // 2


def feudal_levy(state: GameState, rng: Any, decider: Decider) -> Log:
    if state.winter is not None and state.winter.edward:
        return [_line("", PUBLIC, step="7.7", levy=0, why="Edward I winters in Scotland (7.4)")]
    count = levy_size(state)
    drawn, draw = levy_draw(state, rng, count, state.year + 1)
    return [_line("", PUBLIC, step="7.7", levy=len(drawn)),
            _line("england", PRIVATE, step="7.7", drawn=list(drawn), **draw.facts())]


def new_year(state: GameState, rng: Any, decider: Decider) -> Log:
    log = kings.end_of_1306(state)
    state.year += 1
    dealt = start_year(state, rng)
    return log + [_line("", PUBLIC, step="7.8", year=state.year), *dealt_lines(state, dealt, "winter", "7.8")]


STEPS: tuple[tuple[str, Callable[[GameState, Any, Decider], Log]], ...] = (
    ("7.1", nobles_home),
    ("7.2", scottish_king),
    ("7.3", english_disbanding),
    ("7.5", scottish_disbanding),
    ("7.6", builds),
    ("7.7", feudal_levy),
    ("7.8", new_year),
)


COUNT_AFTER = "7.5"  # the last step that can change who controls a noble (9.0)


def counts_this_winter(state: GameState) -> bool:
    """Whether this Winter Turn ends with the count (9.0): the scenario's last year, or for the
    Campaign 1314 and every later year while the count gives no winner (8.3)."""
    count_from = scenario(state.scenario).count_from
    return bool(count_from) and state.year >= count_from


def final_count(state: GameState, rng: Any, decider: Decider) -> Log:
    """The count after the steps that can change who controls a noble (9.0, 8.3)."""
    check_end_of_scenario(state)
    return [_line("", PUBLIC, step="9.0", final=bool(state.winner), winner=state.winner, reason=state.win_reason,
                    year=state.year)]


def winter(state: GameState, rng: Any, decider: Decider) -> Log:
    """Play the Winter Turn. In a year that ends the scenario (9.0, 8.3) the nobles are counted
    once every step that can change who controls one is played (7.1 to 7.5: nobles home and
    defecting, Moray's and the castle limits' disbanding, Wallace's wintering); with a winner the
    game ends there, the later steps unplayed; a Campaign without one plays on."""
    if state.winner:
        return []
    steps: list[tuple[str, Callable[[GameState, Any, Decider], Log]]] = []
    for name, step in STEPS:
        steps.append((name, step))
        if name == COUNT_AFTER and counts_this_winter(state):
            steps.append(("9.0", final_count))
    log: Log = []
    for name, step in steps:
        if state.winter is not None and name in state.winter.done:
            continue
        work = state.copy()
        position = getattr(rng, "position", None)
        try:
            with sofar.writing(log), sofar.working(work):  # what a question's reports show (sofar.py)
                entries = step(work, rng, decider)
        except NeedDecision:
            if position is not None:
                rng.position = position
            raise
        for f in fields(GameState):
            setattr(state, f.name, getattr(work, f.name))
        _progress(state).done.append(name)
        log += entries
        if work.winner:  # = state.winner, just copied (mypy still holds it falsy from the check above)
            _progress(state).final = True
            return log
    state.winter = None
    return log


# --- winter plans: order data that answers the winter questions ------------------------------------
#
# A side's ``[winter]`` table (docs/orders.md "Winter"). Every key is optional; a question the
# plan does not answer (or answers with what is not a legal option at that moment) takes the
# default, the question's first option; a kind listed in ``ask`` pauses for the player instead.

PLAN_KEYS = ("homes", "moray", "king", "edward", "edward_company", "wallace", "disband", "release", "builds", "ask")
QUESTION_KINDS = ("winter_home", "winter_moray", "winter_king", "winter_edward", "winter_edward_company",
                  "winter_wallace", "winter_disband", "winter_release", "winter_build")
_SCOTS_ONLY = ("moray", "king", "wallace")
_SINGLE_KINDS = ("winter_home", "winter_moray", "winter_king", "winter_edward", "winter_edward_company",
                 "winter_wallace")
_ENGLISH_ONLY = ("edward", "edward_company")


def validate_winter_plan(side: str, plan: Any) -> dict[str, Any]:
    """Check a winter plan's shape and the choices no position can make legal; returns it."""

    def bad(key: str, why: str) -> InvalidOrder:
        return InvalidOrder(f"winter.{key}: {why}")

    def illegal(key: str, value: Any, why: str, rule: str) -> IllegalOrder:
        return IllegalOrder(f"winter.{key} = {value!r}: {why} ({rule})", rule=rule)

    if not isinstance(plan, dict):
        raise InvalidOrder(f"winter: a table of plans, not {plan!r}")
    for key, value in plan.items():
        if key not in PLAN_KEYS:
            raise bad(key, f"unknown key; use {', '.join(PLAN_KEYS)}")
        if key in _SCOTS_ONLY and side != "scotland":
            raise illegal(
                key, value, "only the Scots make this choice", {"moray": "7.1", "king": "7.2", "wallace": "7.5"}[key]
            )
        if key in _ENGLISH_ONLY and side != "england":
            raise illegal(key, value, "only the English make this choice", "7.4")
    for key, options, rule in (("moray", ("home", "stay", "disband"), "7.1"), ("edward", ("winter", "disband"), "7.4"),
                               ("edward_company", ("stay", "disband"), "7.4"),
                               ("wallace", ("selkirk", "stay", "disband"), "7.5")):
        if key in plan and plan[key] not in options:
            raise illegal(key, plan[key], f"choose one of {', '.join(options)}", rule)
    if "king" in plan:
        cathedrals = [a for a in board().area_names() if board().area(a).cathedral]
        if plan["king"] not in ("stay", "disband", *cathedrals):
            raise illegal("king", plan["king"], f"the King may stay, disband or go to {', '.join(cathedrals)}", "7.2")
    homes = plan.get("homes", {})
    if not isinstance(homes, dict):
        raise bad("homes", "a table noble = home area")
    for noble, home in homes.items():
        if noble not in blocks() or len(spec(noble).homes) < 2 or home not in spec(noble).homes:
            raise illegal(f"homes.{noble}", home, "only Bruce and Comyn choose, between their two homes", "7.12")
    for key in ("disband", "release", "ask"):
        value = plan.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise bad(key, "a list of names")
        for v in value:
            if key == "ask" and v not in QUESTION_KINDS:
                raise bad(key, f"unknown question kind {v!r}; use {', '.join(QUESTION_KINDS)}")
            if key != "ask" and (v not in blocks() or side not in spec(v).sides):
                raise bad(key, f"{v!r} is not a {side} block"
                          f"{did_you_mean(v, [n for n in blocks() if side in spec(n).sides])}")
    builds_plan = plan.get("builds", {})
    if not isinstance(builds_plan, dict):
        raise bad("builds", "a table area = list of draw / step:<block> / pass")
    for area, entries in builds_plan.items():
        if area not in board().areas:
            raise bad(f"builds.{area}", f"unknown area (1.1){did_you_mean(area, board().areas)}")
        if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
            raise bad(f"builds.{area}", "a list of draw / step:<block> / pass")
        for e in entries:
            if e == "draw" and side == "england":
                raise illegal(f"builds.{area}", e, "the English never draw blocks with RPs", "7.63")
            if e not in ("draw", "pass") and not (e.startswith("step:") and e[5:] in blocks()):
                raise bad(f"builds.{area}", f"{e!r} is not draw, pass or step:<block>")
    return plan


def winter_plan_options(state: GameState, side: str) -> dict[str, Any]:
    """The legal choices for each key of ``side``'s ``[winter]`` plan, the position as it stands.

    The legal-move generator for winter plans (docs/orders.md "Winter"): a plan built from any of
    these choices (a value per single-choice key; any names, in any order, from a list key; per
    area any sequence of its build entries) is accepted by ``validate_winter_plan``. The winter
    changes the position as it goes (nobles go home first), so a choice that is no longer legal
    when its question comes is ignored there and the question's default applies.
    """
    out: dict[str, Any] = {}
    # The owner chooses, or the new owner if both homes are enemy-occupied (7.12). Listed for every
    # two-home noble wherever he stands: whether the enemy's Bruce or Comyn is on the map is hidden
    # (2.0), and a listing that depended on it would tell.
    out["homes"] = {n: sorted(spec(n).homes) for n in sorted(state.blocks)
                    if spec(n).is_noble and len(spec(n).homes) > 1}
    def mine(name: str) -> bool:
        return state.on_map(name) and state.blocks[name].owner == side
    if side == "scotland":
        if mine(MORAY):
            out["moray"] = moray_options(state)
        if mine(KING):
            out["king"] = king_options(state)
        if mine(WALLACE):
            out["wallace"] = wallace_options(state)
    elif mine(EDWARD):
        may = edward_may_winter(state)
        out["edward"] = ["disband", "winter"] if may else ["disband"]
        if may:
            out["edward_company"] = ["stay", "disband"]
    if side == "england":  # only infantry is left to choose about (7.31, 7.32)
        disbandable = [n for n in state.blocks_of(side) if state.on_map(n) and spec(n).type == "infantry"]
    else:  # nobles never disband (Moray only by his own choice, 7.1); the King by his own (7.2)
        disbandable = [n for n in state.blocks_of(side) if state.on_map(n) and not spec(n).is_noble]
    out["disband"] = disbandable
    out["release"] = [n for n in disbandable if n not in (KING, MORAY)]
    buildable = ENGLISH_BUILDABLE if side == "england" else None
    builds_out: dict[str, list[str]] = {}
    for area in replacement_points(state, side):
        entries = ["draw"] if side == "scotland" else []
        entries += [f"step:{n}" for n in state.blocks_in(area, side)
                    if buildable is None or spec(n).type in buildable]
        builds_out[area] = entries + ["pass"]
    out["builds"] = builds_out
    out["ask"] = list(QUESTION_KINDS)
    return out


_CHOICE_RULES = {"moray": "7.1", "king": "7.2", "wallace": "7.5", "edward": "7.4", "edward_company": "7.4"}
_CHOICE_WHO = {"moray": "Moray is not", "king": "the King is not", "wallace": "Wallace is not",
               "edward": "Edward is not", "edward_company": "Edward may not winter in Scotland, so no block is"}


def check_winter_plan(state: GameState, side: str, plan: Any) -> dict[str, Any]:
    """``validate_winter_plan`` and, against the position the plan is written in, every choice
    one of the options listed for it (``winter_plan_options``): the referee refuses a plan that
    names an option not offered, citing the rule, rather than replacing it by a default (7.0)."""

    checked = validate_winter_plan(side, plan)
    plan = checked
    offered = winter_plan_options(state, side)
    for key, rule in _CHOICE_RULES.items():
        if key not in plan:
            continue
        if key not in offered:
            where = "a block of yours on the map" if key != "edward_company" else "left to winter with him"
            raise IllegalOrder(f"winter.{key} = {plan[key]!r}: {_CHOICE_WHO[key]} {where}, so there is "
                               f"no such choice this winter ({rule})", rule=rule)
        if plan[key] not in offered[key]:
            raise IllegalOrder(f"winter.{key} = {plan[key]!r}: not a choice this winter; choose one of "
                               f"{', '.join(offered[key])} ({rule})", rule=rule)
    rule = "7.32" if side == "england" else "7.5"
    for key in ("disband", "release"):
        for name in plan.get(key, []):
            if name not in offered[key]:
                raise IllegalOrder(f"winter.{key}: {name!r} is not one of the blocks that may disband by "
                                   f"choice this winter ({', '.join(offered[key]) or 'none'}) ({rule})", rule=rule)
    return checked


class PlanDecider:
    """Answers winter questions from a validated winter plan, the first option otherwise."""

    def __init__(self, side: str, plan: dict[str, Any]) -> None:
        self.side = side
        self.plan = validate_winter_plan(side, plan)
        self.builds = {a: list(v) for a, v in self.plan.get("builds", {}).items()}

    def decide(self, question: Question) -> str:
        if question.kind in self.plan.get("ask", []):
            raise NeedDecision(question)
        wanted = self._wanted(question)
        for answer in wanted:
            if answer in question.options:
                return answer
        if question.kind in _SINGLE_KINDS and any(wanted):
            # The plan chose, and the winter has since made that choice illegal: ask, never
            # silently replace it (docs/rules-notes.md 7.0).
            raise NeedDecision(question)
        return question.options[0]

    def _wanted(self, q: Question) -> list[str]:
        p, kind = self.plan, q.kind
        if kind == "winter_home":
            return [p.get("homes", {}).get(q.context.get("noble", ""), "")]
        simple = {"winter_moray": "moray", "winter_king": "king", "winter_edward": "edward",
                  "winter_edward_company": "edward_company", "winter_wallace": "wallace"}
        if kind in simple:
            return [p.get(simple[kind], "")]
        if kind == "winter_disband":
            return list(p.get("disband", []))
        if kind == "winter_release":
            return list(p.get("release", [])) + [KEEP]
        if kind == "winter_build":
            queue = self.builds.get(q.context.get("area", ""), [])
            while queue:
                entry = queue.pop(0)
                if entry in q.options:
                    return [entry]
        return []


def plan_decider(side: str, plan: dict[str, Any]) -> PlanDecider:
    """The decider a side's ``[winter]`` plan stands for (for plans.py and the ruleset)."""
    return PlanDecider(side, plan)
