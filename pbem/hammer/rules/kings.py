"""Kings (6.0-6.22): Edward I and II, the Scottish coronations, and defection battles.

A coronation is announced instead of an Event's own text (6.21, 6.22): ``events.resolve_event``
hands ``{"coronation": candidate}`` here. Nobles who defect because of a coronation or a Herald
fight at once, as attackers, wherever they now stand among former friends (``fight_defections``).

With no referee (docs/hammer-peer.md §3) every block read here may stand behind a handle; it is read through
``hidden.py`` as the table shows it: the candidate through the Scots' noble index (he is revealed in Fife), the
French Knights by the handle the Scots opened with their order (revealed where the King deploys), and each
noble of the defecting faction through the noble index (revealed: his allegiance changes in public). In a
refereed game every block is a name and these reads are the plain ones.
"""

from __future__ import annotations

from pbem.core.drbg import Dice
from pbem.core.errors import PbemError
from pbem.hammer.rules import hidden, sofar
from pbem.hammer.rules.battle import fight_defection
from pbem.hammer.rules.blocks import spec
from pbem.hammer.rules.decisions import Decider
from pbem.hammer.rules.errors import IllegalOrder
from pbem.hammer.rules.log import PUBLIC, LogEntry, Plain, entry
from pbem.hammer.rules.state import DEAD, OFF_MAP, POOL, BlockState, GameState
from pbem.hammer.rules.victory import edward_dies as edward_dies
from pbem.hammer.rules.victory import king_dies as king_dies

Log = list[LogEntry]
KING = "King"
FIFE = "Fife"
FRENCH = "French Knights"
MORAY = "Moray"
WALLACE = "Wallace"
BALLIOL_FROM = 1301  # 6.22
CANDIDATES = ("Bruce", "Comyn", "Balliol")
CROWN_SHOWN = "6.21, 6.22: the Scots show the blocks a coronation reads"
# Who defects to the English when each candidate is crowned (6.21, 6.22).
DEFECTING_FACTION = {"Bruce": "comyn", "Comyn": "bruce", "Balliol": "bruce"}


# --- English kings (6.1) ---------------------------------------------------------------------

def end_of_1306(state: GameState) -> Log:
    """Edward I becomes Edward II at the end of 1306 (6.1)."""
    if state.year >= 1306 and state.edward == "I":
        state.edward = "II"
        return [entry("edward_ii", None, PUBLIC, year=state.year, why="end of 1306 (6.1)")]
    return []


# --- Scottish kings (6.2-6.22) ----------------------------------------------------------------

def coronation_refusal(state: GameState, candidate: str) -> str:
    """Why ``candidate`` cannot be crowned now (with the rule), or "" when he can. With no referee the blocks it
    reads behind handles are asked of the Scots (``hidden``): a client that has not seen them yet waits."""
    if candidate not in CANDIDATES:
        return f"there is no candidate {candidate!r}; the candidates are {', '.join(CANDIDATES)} (6.2)"
    if state.king:
        return f"a King ({state.king}) has already been crowned: once per game (6.2)"
    if candidate == "Balliol":
        if state.year < BALLIOL_FROM:
            return f"King Balliol cannot return before {BALLIOL_FROM} (6.22)"
        french = french_key(state)
        if french is None or not state.on_map(french) or state.blocks[french].owner != "scotland":
            if hidden.active() and french is None:
                return "no block the Scots showed with the order is the French Knights on the map (6.22)"
            return "the French Knights are not on the map (6.22)"
        return ""
    wallace = hidden.locate(state, WALLACE)
    if (state.blocks[wallace].location != DEAD) if wallace is not None else hidden.active():
        return "Wallace is not dead (6.21)"  # with no referee a dead block is always one a battle showed
    key = candidate_key(state, candidate)
    b = state.blocks.get(key) if key is not None else None
    if b is None or b.owner != "scotland" or b.location != FIFE:
        return f"{candidate} is not a Scottish block in Fife (6.21)"
    return ""


def candidate_key(state: GameState, candidate: str) -> str | None:
    """Where Bruce or Comyn stands: his name, a handle seen, or the handle the Scots' noble index names (asked)."""
    key = hidden.locate(state, candidate)
    if key is None and hidden.hidden_by(candidate) == "scotland":
        key = hidden.index_handle(state, "scotland", candidate, CROWN_SHOWN)
    return key


def french_key(state: GameState) -> str | None:
    """Where the French Knights stand: the name, a handle seen, or a handle the Scots opened (6.22)."""
    return hidden.locate(state, FRENCH) or hidden.opened_as(state, "scotland", FRENCH, CROWN_SHOWN)


def coronation_candidates(state: GameState) -> list[str]:
    """Candidates the Scots may crown now by announcing an Event as a coronation (6.21, 6.22).

    When both sides play Events, England's is resolved first and the Scots may choose then
    (6.2 sidebar): the engine asks for the Scottish parameters after England's Event.
    """
    return [c for c in CANDIDATES if not coronation_refusal(state, c)]


def crown(state: GameState, candidate: str, rng: Dice, decider: Decider) -> Log:
    """Crown ``candidate``: the King block deploys at full strength, the rival faction defects to
    the English and fights at once wherever it stands among Scots (6.21, 6.22)."""
    log, defectors = proclaim(state, candidate)
    with sofar.writing(log):  # a question in the battles it starts shows the coronation (sofar.py)
        log += fight_defections(state, defectors, rng, decider)
    return log


def proclaim(state: GameState, candidate: str) -> tuple[Log, list[str]]:
    """The coronation before its battles: the King deployed, the rival faction's nobles handed over (their keys).
    Everything it reads of the Scots' hidden blocks it reads here, so their client knows what to open ahead."""
    why = coronation_refusal(state, candidate)
    if why:
        rule = why[why.rfind("(") + 1:-1]
        raise IllegalOrder(f"coronation of {candidate}: {why}", rule=rule)
    key = french_key(state) if candidate == "Balliol" else candidate_key(state, candidate)
    assert key is not None  # coronation_refusal found him
    shown = hidden.reveal(state, [key], CROWN_SHOWN)
    wanted = FRENCH if candidate == "Balliol" else candidate
    if hidden.name_of(key) != wanted:  # the record's check of the facts convicts it first (peer_setup.check_facts)
        raise PbemError(f"coronation of {candidate}: the Scots show {hidden.name_of(key)} behind {key}, not {wanted} "
                        f"({CROWN_SHOWN})")
    where = state.blocks[key].location
    state.blocks[KING] = BlockState("scotland", where, spec(KING).steps)
    state.king = candidate
    faction = DEFECTING_FACTION[candidate]
    hid = [hidden.find(state, n, CROWN_SHOWN) for n in hidden.indexed_nobles("scotland")
           if spec(n).faction == faction and n != MORAY]
    rule = "6.22" if candidate == "Balliol" else "6.21"
    log: Log = hidden.reveal_line(state, [*shown, *sorted(hid)], rule)  # before they change sides: the Scots show them
    defectors = [n for n in state.nobles_of("scotland") if spec(n).faction == faction and spec(n).name != MORAY]
    for name in defectors:
        state.blocks[name].owner = "england"
    names: list[Plain] = [*sorted(hidden.name_of(n) for n in defectors)]  # the handles' blocks, shown above
    log += [entry("coronation", None, PUBLIC, king=candidate, area=where, defectors=names, rule=rule)]
    return log, defectors


# --- defection battles -------------------------------------------------------------------------

def defection_areas(state: GameState, defectors: list[str]) -> dict[str, list[str]]:
    """Areas where a defector now stands with enemy blocks: area -> defectors there (sorted)."""
    out: dict[str, list[str]] = {}
    for name in sorted(defectors):
        b = state.blocks[name]
        if b.location in (POOL, DEAD, OFF_MAP):
            continue
        if state.is_enemy_occupied(b.location, b.owner):
            out.setdefault(b.location, []).append(name)
    return dict(sorted(out.items()))


def fight_defections(state: GameState, defectors: list[str], rng: Dice, decider: Decider) -> Log:
    """Fight every battle the defection causes at once, the defectors attacking, in area-name order."""
    log: Log = []
    with sofar.writing(log):
        for area, names in defection_areas(state, defectors).items():
            log += _fight_defection(state, area, names, rng, decider)
    return log


def _fight_defection(state: GameState, area: str, defectors: list[str], rng: Dice, decider: Decider) -> Log:
    """A battle fought at once with ``defectors`` attacking (battle.py: a normal battle, 3 rounds)."""
    return list(fight_defection(state, area, list(defectors), rng, decider) or [])


__all__ = ["coronation_candidates", "coronation_refusal", "candidate_key", "french_key", "proclaim", "crown",
           "edward_dies", "king_dies", "end_of_1306", "fight_defections", "defection_areas"]
