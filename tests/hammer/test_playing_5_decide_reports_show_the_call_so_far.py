"""docs/playing.md §5: a plan that says "ask me" opens a decide step showing the battle so far.

The question may come up in any engine call, not only the Battle Phase: in an Event (a Herald's
noble changes sides and fights at once, 3.12, 6.21), in the second battle of a Battle Phase, in
the Winter Turn. The decide step's reports show each side the call up to the question: the game
as the call had left it (the battle in progress, the Herald's noble already English, the blocks
a winter step already disbanded) and the call's log lines written so far, each line exactly as
that side reads it once the call is over, and nothing that comes after the question.
"""

from __future__ import annotations

from typing import Any

from fakes import bare_state, put

from pbem.cli.report import render_report
from pbem.core.drbg import Drbg
from pbem.hammer import ruleset
from pbem.hammer.play import drafts
from pbem.hammer.rules import sofar
from pbem.hammer.rules.log import PUBLIC, entry
from pbem.hammer.rules.state import DEAD, POOL

R = ruleset.HammerRuleset()
SIDES = ("england", "scotland")


def _order(state: dict[str, Any], side: str, **sections: Any) -> dict[str, Any]:
    return drafts.Draft(side=side, step=state["step"], kind=state["owes"][side], sections=sections).body()


def _new(england: list[str], scotland: list[str]) -> dict[str, Any]:
    s = R.setup("braveheart", {}, Drbg(b"k" * 32))
    g = ruleset.game_of(s)
    g.hands = {"england": sorted(england), "scotland": sorted(scotland)}
    s["game"] = g.to_dict()
    return s


def _unstamped(line: dict[str, Any]) -> dict[str, Any]:
    """A line without the referee's step number (stamped when its call ends; a winter line's own
    ``step``, the rule's sub-step such as "7.5", is a fact and stays)."""
    return {k: v for k, v in line.items() if not (k == "step" and isinstance(v, int))}


def _of_call(log: list[dict[str, Any]], stream: list[int]) -> list[dict[str, Any]]:
    return [_unstamped(e) for e in log if e.get("stream") == stream]


def _shown_of_call(report: dict[str, Any], stream: list[int]) -> list[dict[str, Any]]:
    """The paused call's lines a decide report shows, in the call's order: its log lines, then
    the battle in progress."""
    return _of_call(report["log"], stream) + _of_call(report["view"]["fight"].get("log", []), stream)


def _assert_a_prefix_of_the_call(paused: Any, ended: Any) -> None:
    """Each side's decide report shows the first lines of the call exactly as its report after
    the call shows them (the same redaction), and none of the lines that come after the question."""
    stream = paused.state["resume"]["stream"]
    assert ended.state["resume"] is None or ended.state["resume"]["stream"] != stream, "the call is over"
    for side in SIDES:
        shown = _shown_of_call(paused.reports[side], stream)
        final = _of_call(ended.reports[side]["log"], stream)
        assert shown == final[:len(shown)], side
        assert len(final) > len(shown), side  # the rest of the call came after the question


def _decide(out: Any, answer: str) -> Any:
    """The side asked answers ``answer`` (to each question asked together)."""
    state = out.state
    side = next(iter(R.owes(state)))
    count = len(state.get("questions") or [state["question"]])
    decide = {"answers": [answer] * count} if count > 1 else {"answer": answer}
    return R.adjudicate(state, {side: _order(state, side, decide=decide)}, Drbg(bytes([state["step"]]) * 32))


def _said(rep: dict[str, Any], what: str = "") -> list[tuple[Any, ...]]:
    """The report's log lines of one kind as (step or event, the block or noble named)."""
    return [(e.get("step") if e["what"] == "winter" else e.get("event"),
             e.get("noble") or e.get("disbanded") or e.get("built") or e.get("blocks") or e.get("by"))
            for e in rep["log"] if not what or e["what"] == what]


# --- an Event: the Herald's noble fights at once -------------------------------------------------

HERALD_HANDS = (["herald", "move1-1", "move2-1", "move2-2", "move3-1"],
                ["move1-3", "move1-4", "move2-3", "move2-4", "move3-2"])


def _herald_on_buchan() -> tuple[dict[str, Any], Any]:
    """England plays the Herald on Buchan, a Scottish noble standing in Buchan with Fraser; the
    die takes him (1-4), so he attacks Fraser at once (3.12, 6.21); Scotland's plans ask."""
    s = _new(*HERALD_HANDS)
    g = ruleset.game_of(s)
    g.blocks["Buchan"].owner = "scotland"
    g.blocks["Fraser"].location = "Buchan"
    s["game"] = g.to_dict()
    out = R.adjudicate(s, {"england": _order(s, "england", card={"play": "herald"}, event={"noble": "Buchan"}),
                           "scotland": _order(s, "scotland", card={"play": "move2-3"}, plans={"ask": True})},
                       Drbg(bytes(32)))
    return s, out


def test_playing_5_a_decide_step_opened_by_an_event_shows_the_herald_die_and_the_battle_in_progress() -> None:
    _, out = _herald_on_buchan()
    assert R.owes(out.state) == {"scotland": "decide"}
    assert out.state["resume"]["call"] == "submit_events"
    for side in SIDES:
        rep = out.reports[side]
        herald = [e for e in rep["log"] if e.get("event") == "herald"]
        assert len(herald) == 1 and herald[0]["noble"] == "Buchan", side
        assert herald[0]["die"] <= 4 and herald[0]["converted"] is True  # the die took him (3.12)
        assert herald[0]["stream"] == out.state["resume"]["stream"]
        fight = rep["view"]["fight"]
        assert (fight["area"], fight["attacker"], fight["round"]) == ("Buchan", "england", 1), side
        assert [e["what"] for e in fight["log"]][:3] == ["battle", "reveal", "reveal"], side
        text = render_report(rep)
        assert "played Herald on Buchan: die" in text and "battle in progress in Buchan" in text
    scots, english = out.reports["scotland"]["view"], out.reports["england"]["view"]
    assert scots["fight"]["line"] == ["Fraser"] and scots["fight"]["enemy_line"] == 1
    assert english["fight"]["line"] == ["Buchan"] and english["fight"]["enemy_line"] == 1
    # the board as the Event left it at the question: Buchan is English now
    assert "Buchan" not in scots["own_nobles"] and "Buchan" in english["own_nobles"]
    assert scots["enemy_blocks"]["Buchan"] == 1 and scots["control"]["Buchan"] == "contested"
    assert out.state["paused_log"] == [e for e in out.reports["england"]["log"] if e.get("event") == "herald"]
    for side in SIDES:  # the stored state gives the same reports (protocol: report(state, side, log))
        assert R.report(out.state, side, out.log, "", out.state["step"]) == out.reports[side]


def test_playing_5_an_event_s_decide_report_shows_each_side_the_call_as_it_will_read_it_and_no_more() -> None:
    _, out = _herald_on_buchan()
    ended = _decide(out, "fire")
    assert "decide" not in R.owes(ended.state).values()
    _assert_a_prefix_of_the_call(out, ended)
    assert ended.state["paused"] is None and "paused_log" not in ended.state


def test_playing_5_a_decide_step_in_a_coronation_s_second_battle_shows_the_coronation_and_the_first() -> None:
    """Comyn crowned (6.21): Mar and Lennox, Scots of the Bruce faction standing each with a Scot,
    defect and attack at once, in area-name order; Scotland's plans ask in Mar only."""
    s = _new(["move1-1", "move1-2", "move2-1", "move2-2", "move3-1"],
             ["herald", "move1-3", "move2-3", "move2-4", "move3-2"])
    g = ruleset.game_of(s)
    g.blocks["Wallace"].location, g.blocks["Wallace"].strength = DEAD, 0
    g.blocks["Comyn"].owner, g.blocks["Comyn"].location = "scotland", "Fife"
    for noble, scot in (("Mar", "Fraser"), ("Lennox", "Lindsay")):
        g.blocks[noble].owner = "scotland"
        g.blocks[scot].location, g.blocks[scot].strength = noble, 3
    s["game"] = g.to_dict()
    out = R.adjudicate(s, {"england": _order(s, "england", card={"play": "move1-1"}),
                           "scotland": _order(s, "scotland", card={"play": "herald"}, event={"coronation": "Comyn"},
                                              plans={"areas": {"Mar": {"ask": True}}})}, Drbg(b"c" * 32))
    assert R.owes(out.state) == {"scotland": "decide"} and out.state["resume"]["call"] == "submit_events"
    for side in SIDES:
        rep = out.reports[side]
        assert [e["what"] for e in rep["log"]][:3] == ["cards", "coronation", "battle"], side
        assert [e["area"] for e in rep["log"] if e["what"] == "battle_end"] == ["Lennox"], side
        assert rep["view"]["fight"]["area"] == "Mar" and rep["view"]["fight"]["attacker"] == "england", side
    _assert_a_prefix_of_the_call(out, _decide(out, "fire"))


# --- the Battle Phase: the battles fought before the one that asks -----------------------------

def test_playing_5_a_decide_step_in_a_later_battle_shows_the_battles_fought_before_it() -> None:
    """England attacks Annan and Fife; Scotland's plans ask in Fife only. Annan is fought first
    (area-name order, 5.1), by the plans; the decide step in Fife shows it."""
    s = _new(["move3-1", "move2-1", "move2-2", "move1-1", "move1-2"],
             ["move1-3", "move2-3", "move2-4", "move1-4", "move1-5"])
    attack = {"moves": [{"from": "England", "to": "Annan", "blocks": ["Lancaster Knights"]},
                        {"from": "Mentieth", "to": "Fife", "blocks": ["Mentieth", "Northumber Infantry"]}]}
    s = R.adjudicate(s, {"england": _order(s, "england", card={"play": "move3-1"}, if_player1=attack),
                         "scotland": _order(s, "scotland", card={"play": "move1-3"})}, Drbg(b"s" * 32)).state
    plans = {"areas": {"Fife": {"ask": True}}}
    out = R.adjudicate(s, {"scotland": _order(s, "scotland", moves={"moves": []}, plans=plans)}, Drbg(b"a" * 32))
    assert R.owes(out.state) == {"scotland": "decide"}
    assert out.state["resume"]["call"] == "run_battles"
    for side in SIDES:
        rep = out.reports[side]
        annan = [e for e in rep["log"] if e.get("area") == "Annan"]
        assert annan[0]["what"] == "battle" and annan[-1]["what"] in ("battle_end", "regroup"), side
        assert [e["what"] for e in rep["log"]].count("battle_end") == 1, side
        assert rep["view"]["fight"]["area"] == "Fife", side
        assert "Annan" not in [b["area"] for b in rep["view"]["battles"]], side  # fought: off the list
    assert out.state["question"]["kind"] == "battle_action"
    _assert_a_prefix_of_the_call(out, _decide(out, "fire"))


# --- a border raid after the moves or the Events of a turn (5.9) ----------------------------------

def _graham_in_england(england: list[str], scotland: list[str]) -> dict[str, Any]:
    """Graham stands in an England the English have left: a border raid ends the turn (5.9)."""
    s = _new(england, scotland)
    g = ruleset.game_of(s)
    for name in g.blocks_in("England", "england"):
        g.blocks[name].location, g.blocks[name].strength = POOL, 0
    g.blocks["Graham"].location, g.blocks["Graham"].strength = "England", 2
    g.blocks["Douglas"].strength = 2
    s["game"] = g.to_dict()
    return s


def test_playing_5_a_border_raid_s_decide_step_shows_the_moves_made_before_it() -> None:
    s = _graham_in_england(["move1-1", "move1-2", "move2-1", "move2-2", "move3-1"],
                           ["move1-3", "move1-4", "move2-3", "move2-4", "move3-2"])
    s = R.adjudicate(s, {"england": _order(s, "england", card={"play": "move3-1"}, if_player1={"moves": []},
                                           plans={"ask": ["raid_loss"]}),
                         "scotland": _order(s, "scotland", card={"play": "move2-3"})}, Drbg(b"c" * 32)).state
    move = {"from": "Galloway", "to": "Carrick", "blocks": ["Galloway"]}
    out = R.adjudicate(s, {"scotland": _order(s, "scotland", moves={"moves": [move]})}, Drbg(b"d" * 32))
    assert R.owes(out.state) == {"england": "decide"} and out.state["question"]["kind"] == "raid_loss"
    assert out.state["resume"]["call"] == "submit_moves"
    # the moves as each side reads them (4.0): the Scots theirs whole, the English where to and how many
    moves = {side: [e for e in out.reports[side]["log"] if e["what"] == "moves"] for side in SIDES}
    assert [e.get("public", False) for e in moves["scotland"]] == [False, True]
    assert moves["scotland"][0]["parts"] == [{"blocks": ["Galloway"], "path": ["Carrick"]}]
    assert moves["england"] == moves["scotland"][1:] and moves["england"][0]["to"] == {"Carrick": 1}
    _assert_a_prefix_of_the_call(out, _decide(out, "Cumbria Infantry"))


def test_playing_5_a_border_raid_s_decide_step_after_two_events_shows_the_second_event() -> None:
    """Both play Events: England's Truce, then Scotland's Victuals (3.12), and the turn ends with
    a border raid England's plans ask about."""
    s = _graham_in_england(["truce", "move1-2", "move2-1", "move2-2", "move3-1"],
                           ["victuals", "move1-4", "move2-3", "move2-4", "move3-2"])
    out = R.adjudicate(s, {"england": _order(s, "england", card={"play": "truce"}, event={},
                                             plans={"ask": ["raid_loss"]}),
                           "scotland": _order(s, "scotland", card={"play": "victuals"},
                                              event={"area": "Fife", "steps": ["Douglas", "Douglas"]})},
                       Drbg(b"c" * 32))
    assert R.owes(out.state) == {"england": "decide"} and out.state["question"]["kind"] == "raid_loss"
    assert (out.state["resume"]["call"], out.state["resume"]["args"][0]) == ("submit_events", "scotland")
    events = [("truce", "england"), ("victuals", "scotland")]  # the public lines, "by" whom
    assert _said(out.reports["scotland"], "event") == events + [("victuals", ["Douglas", "Douglas"])]
    assert _said(out.reports["england"], "event") == events  # which blocks took the steps is Scotland's
    _assert_a_prefix_of_the_call(out, _decide(out, "Cumbria Infantry"))


# --- the Winter Turn: the steps done, and the step in progress --------------------------------

def _winter() -> dict[str, Any]:
    """A winter of 1297: an English noble away from home (7.1), English infantry in England
    (7.3, private), Wallace in Fife (7.5, public: he stays), three Scots in Carrick whose Castle
    Limit is 1 (7.5: two must disband)."""
    g = bare_state("braveheart", 1297)
    g.phase, g.turn = "winter", 5
    put(g, "england", "Lothian", "Mar")
    put(g, "england", "England", "Cumbria Infantry")
    put(g, "scotland", "Carrick", "Douglas", "Barclay", "Fraser")
    put(g, "scotland", "Fife", "Lindsay", "Wallace")
    return {"game": g.to_dict(), "owes": {"england": "winter", "scotland": "winter"},
            "pending": {"england": {}, "scotland": {}}, "resume": None, "question": None, "paused": None, "step": 7}


def test_playing_5_a_winter_decide_step_shows_the_winter_so_far_as_each_side_may_see_it() -> None:
    s = _winter()
    first = R.adjudicate(s, {"england": _order(s, "england", winter={}),
                             "scotland": _order(s, "scotland", winter={"ask": ["winter_disband"]})}, Drbg(b"w" * 32))
    assert R.owes(first.state) == {"scotland": "decide"} and first.state["question"]["kind"] == "winter_disband"
    assert first.state["question"]["context"]["present"] == 3
    second = R.adjudicate(first.state, {"scotland": _order(first.state, "scotland", decide={"answer": "Barclay"})},
                          Drbg(b"x" * 32))
    assert R.owes(second.state) == {"scotland": "decide"} and second.state["question"]["context"]["present"] == 2
    scots, english = second.reports["scotland"], second.reports["england"]
    # the steps done: Mar home (7.1, public), England's infantry disbanded (7.3, England's own line)
    for rep in (scots, english):
        assert {"what": "winter", "step": "7.1", "noble": "Mar", "home": "Mar", "owner": "england"}.items() \
            <= next(e for e in rep["log"] if e.get("step") == "7.1").items()
    assert [e["disbanded"] for e in english["log"] if e.get("step") == "7.3"] == ["Cumbria Infantry"]
    assert not [e for e in scots["log"] if e.get("step") == "7.3"]
    # the step in progress: Wallace stayed (public), Barclay disbanded by the first answer
    # (Scotland's own line; the English see the count in Carrick go down)
    for rep in (scots, english):
        assert [e["choice"] for e in rep["log"] if e.get("step") == "7.5" and e.get("block") == "Wallace"] == ["stay"]
    assert [e["disbanded"] for e in scots["log"] if e.get("step") == "7.5" and "disbanded" in e] == ["Barclay"]
    assert not [e for e in english["log"] if "disbanded" in e and e.get("step") == "7.5"]
    assert sorted(b["block"] for b in scots["view"]["blocks"] if b["area"] == "Carrick") == ["Douglas", "Fraser"]
    assert "Barclay" in scots["view"]["pool"] and english["view"]["enemy_blocks"]["Carrick"] == 2
    assert ruleset.game_of(second.state).blocks["Barclay"].location == "Carrick"  # the game itself waits
    assert ruleset.game_of({"game": second.state["paused"]}).blocks["Barclay"].location == POOL
    ended = R.adjudicate(second.state, {"scotland": _order(second.state, "scotland", decide={"answer": "Fraser"})},
                         Drbg(b"y" * 32))
    assert R.owes(ended.state) == {"england": "card", "scotland": "card"}
    _assert_a_prefix_of_the_call(second, ended)


def test_playing_5_each_english_winter_decide_step_shows_the_winter_up_to_its_question() -> None:
    """Comyn's home (7.12) after Angus went home; Edward's winter (7.4) after the infantry in
    England disbanded (7.3); a second release in Lothian after the first (7.32); a second build
    after the first (7.63). The Scots read the public lines only."""
    g = bare_state("braveheart", 1297)
    g.phase, g.turn = "winter", 5
    put(g, "england", "Lothian", "Angus", "Comyn", "Edward", "Durham Infantry")
    put(g, "england", "Lothian", "Westmor Infantry", strength=1)
    put(g, "england", "England", "Cumbria Infantry")
    put(g, "scotland", "Fife", "Wallace")
    s: dict[str, Any] = {"game": g.to_dict(), "owes": {"england": "winter", "scotland": "winter"},
                         "pending": {"england": {}, "scotland": {}}, "resume": None, "question": None,
                         "paused": None, "step": 7}
    ask = ["winter_home", "winter_edward", "winter_release", "winter_build"]
    out = R.adjudicate(s, {"england": _order(s, "england", winter={"ask": ask}),
                           "scotland": _order(s, "scotland", winter={})}, Drbg(b"w" * 32))
    answers = {"winter_home": "Badenoch", "winter_edward": "disband", "winter_release": "Durham Infantry",
               "winter_build": "step:Westmor Infantry"}
    seen: list[tuple[str, Any]] = []
    while R.owes(out.state) == {"england": "decide"}:
        kind = out.state["question"]["kind"]
        seen.append((kind, out))
        out = _decide(out, answers[kind] if answers[kind] in out.state["question"]["options"] else "keep")
    assert R.owes(out.state) == {"england": "card", "scotland": "card"}
    assert [kind for kind, _ in seen] == ["winter_home", "winter_edward", "winter_release", "winter_release",
                                          "winter_build", "winter_build"]
    english = [_said(paused.reports["england"]) for _, paused in seen]
    scots = [_said(paused.reports["scotland"]) for _, paused in seen]
    homes = [("7.1", "Angus"), ("7.1", "Comyn")]
    assert english[0] == scots[0] == homes[:1]
    assert english[1] == homes + [("7.3", "Cumbria Infantry")] and scots[1] == homes
    assert english[3] == homes + [("7.3", "Cumbria Infantry"), ("7.4", None), ("7.32", "Durham Infantry")]
    assert scots[3] == homes + [("7.4", None)]
    assert english[5] == english[3] + [("7.5", None), ("7.63", "Westmor Infantry")]
    assert scots[5] == scots[3] + [("7.5", None)]
    board = seen[5][1].reports["england"]["view"]["blocks"]  # the first build is on the second question's board
    assert [b["strength"] for b in board if b["block"] == "Westmor Infantry"] == [2]
    for _, paused in seen:
        _assert_a_prefix_of_the_call(paused, out)


def test_playing_5_what_a_call_has_done_so_far_is_read_from_the_innermost_game_and_every_line_held() -> None:
    """sofar.py: the game the innermost working copy holds; the lines every open frame holds, outer
    first, as data copied at the reading; nothing once the frames are closed."""
    outer, inner = bare_state(), bare_state()
    first, second = [entry("event", None, PUBLIC, n=1)], [entry("event", None, PUBLIC, n=2)]
    with sofar.writing(first), sofar.working(outer):
        assert sofar.now().game is outer
        with sofar.writing(second), sofar.working(inner):
            now = sofar.now()
            assert now.game is inner
            assert [line["n"] for line in now.lines] == [1, 2]
            first[0].facts["n"] = 3
            assert now.lines[0]["n"] == 1  # a copy
        assert sofar.now().game is outer and [line["n"] for line in sofar.now().lines] == [3]
    assert sofar.now() == (None, [])
