"""A side's view as text a player reads at breakfast (docs/reports.md "The text report").

Only the view is read, never the state: whatever the view hides cannot appear here. The
output is deterministic (sorted, no floats) so golden files can pin it down.
"""

from __future__ import annotations

from typing import Any

from pbem.hammer.rules.board import BORDER_COST, BORDER_MARK, board, reach_crosses_border, reach_text
from pbem.hammer.rules.cardphase import game_turn
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.errors import PbemError
from pbem.hammer.show.battle_log import format_entry as battle_line
from pbem.hammer.show.odds import estimate_line, estimates
from pbem.hammer.show.sentences import question_where, sentence, summary
from pbem.hammer.show.views import filter_log

RULE = "-" * 78


def _card(card_id: str) -> str:
    try:
        c = card(card_id)
    except PbemError:
        return card_id
    return f"{card_id} ({c.name})"


def _cards(ids: list[str]) -> str:
    return ", ".join(_card(c) for c in ids) or "-"


def _header(v: dict[str, Any]) -> list[str]:
    """The calendar line and the crowns. In the Card Phase the turn's Player 1 is not known yet: the
    cards about to be played decide it (3.1); the view's is the last turn's and is not shown."""
    card_phase = v.get("phase") == "card"
    p1 = "decided by this turn's cards" if card_phase else v.get("player1") or "-"
    king = v.get("king") or "none"
    lines = [f"HAMMER OF THE SCOTS - {v['side']} view - {v['scenario']} {v['year']}, "
             f"game turn {game_turn(v['turn'], v['phase'])}, {v['phase']} phase",
             f"Edward {v['edward']}; Scottish King: {king}; Player 1: {p1}"
             + (f"; truce played by {v['truce']}" if v.get("truce") else "")]
    if v.get("winner"):
        lines.append(f"GAME OVER: {v['winner']} wins ({v.get('win_reason', '')})")
    return lines


def _board_table(v: dict[str, Any]) -> list[str]:
    side, enemy = v["side"], v["enemy"]
    own: dict[str, list[str]] = {}
    for b in v["blocks"]:
        own.setdefault(b["area"], []).append(f"{b['block']} {b['strength']}/{b['steps']}")
    enemy_count = v["enemy_blocks"]
    lines = [f"{'area':<13} {'castle':<6} {'home of':<9} {'control':<10} {'enemy':>5}  yours ({side})"]
    for name in board().area_names():
        area = board().area(name)
        limit = f"{area.castle_limit(side)}{'c' if area.cathedral else ''}"
        n = enemy_count.get(name, 0)
        mine = ", ".join(own.get(name, []))
        homes = ", ".join(area.homes)
        lines.append(f"{name:<13} {limit:<6} {homes:<9} {v['control'].get(name, ''):<10} {n if n else '':>5}  "
                     f"{mine}".rstrip())
    lines.append(f"(castle: your Castle Limit, c = cathedral; home of: the nobles whose home the area is (1.4); "
                 f"enemy: {enemy} blocks standing face-down)")
    return lines


def _lists(v: dict[str, Any]) -> list[str]:
    side, enemy = v["side"], v["enemy"]
    pool = v["pool"]
    lines = [f"your Draw Pool ({len(pool)}): {', '.join(pool) or '-'}",
             f"{enemy} Draw Pool: {v['enemy_pool']} block(s)"]
    for label, key in (("dead", "dead"), ("off the map", "off_map")):
        parts = [f"{s}: {', '.join(v[key][s]) or '-'}" for s in sorted(v[key])]
        lines.append(f"{label}: " + "; ".join(parts))
    nobles = v["nobles"]
    lines.append("nobles: " + "; ".join(f"{s} {nobles[s]}" for s in sorted(nobles))
                 + f" (yours: {', '.join(v['own_nobles']) or '-'})")
    lines.append(f"your hand ({len(v['hand'])}): {_cards(v['hand'])}")
    lines.append(f"{enemy} hand: {v['enemy_hand']} card(s); deck: {v['deck_size']} card(s)")
    if v.get("cards"):
        played = "; ".join(f"{s}: {_card(c)}" for s, c in sorted(v["cards"].items()))
        # in the Card Phase this turn's cards are still to come: the view's are the last turn's
        lines.append(f"cards this turn: none yet (last turn: {played})" if v.get("phase") == "card"
                     else f"cards this turn: {played}")
    lines.append("played this year: " + "; ".join(f"{s}: {_cards(v['played'][s])}" for s in sorted(v["played"])))
    del side
    return lines


def pending_battles(v: dict[str, Any]) -> list[dict[str, Any]]:
    """Battles still to fight: never one that has ended (its ``battle_end`` is in the log) nor
    the one in progress (shown on its own, with its round)."""
    ended = {e.get("area") for e in v.get("log", []) if e.get("what") == "battle_end"}
    fighting = (v.get("fight") or {}).get("area")
    return [b for b in v.get("battles", []) if b["area"] not in ended and b["area"] != fighting]


def _battles(v: dict[str, Any]) -> list[str]:
    lines = []
    for b in pending_battles(v):
        counts = ", ".join(f"{s} {n}" + (f" ({b['reserves'][s]} in reserve)" if b["reserves"].get(s) else "")
                           for s, n in sorted(b["blocks"].items()))
        lines.append(f"  {b['area']}: {b['attacker']} attacks; {counts}")
        if b["area"] in (v.get("odds") or {}):
            lines.append(estimate_line(b["area"], v["odds"][b["area"]]))
    if lines:
        lines.insert(0, "battles to fight:")
    f = v.get("fight") or {}
    if f:
        lines.append(f"battle in progress in {f['area']}, round {f['round']}: {f['attacker']} attacks")
        lines.append(f"  your line: {', '.join(f['line']) or '-'}; your reserves: {', '.join(f['reserves']) or '-'}")
        lines.append(f"  enemy: {f['enemy_line']} in line, {f['enemy_reserves']} in reserve")
        lines += ["  " + line for line in (log_line(e, v["side"]) for e in f.get("log", [])) if line]
    return lines


BATTLE_KINDS = frozenset({"battle", "reveal", "celtic", "control", "fire", "hit", "eliminated", "retreat",
                          "no_retreat", "pass", "regroup", "battle_end"})


def log_line(e: dict[str, Any], reader: str = "") -> str:
    """One log entry as one line: battle lines die by die (every die with its index in the
    random stream), everything else as a sentence from ``reader``'s side (sentences.py)."""
    if "text" in e:
        return str(e["text"])
    if e.get("what") in BATTLE_KINDS and not e.get("redacted"):
        try:
            return battle_line(e)
        except (KeyError, TypeError):
            pass
    return sentence(e, reader)


def _log(v: dict[str, Any]) -> list[str]:
    entries = v.get("log", [])
    if not entries:
        return []
    lines = [log_line(e, v["side"]) for e in entries]
    return ["what happened (in full, die by die):"] + ["  " + line for line in lines if line]


def since_last(v: dict[str, Any]) -> list[str]:
    """"Since your last report": what happened, in sentences from this side's point of view;
    orders given by default (the deadline passed) first. ``since`` (when the player skipped reports:
    their logs, then this one's) is told in place of this report's ``log``."""
    lines = [f"  {line}" for line in v.get("defaults", [])]
    lines += [f"  {line}." for line in summary(v.get("since", v.get("log", [])), v["side"])]
    return ["since your last report:"] + (lines or ["  nothing you could see happened."])


def _asks(v: dict[str, Any]) -> list[str]:
    asks = v.get("asks") or {}
    kind = asks.get("kind", "")
    if not kind:
        return []
    lines = [f"you owe: {kind}"]
    if asks.get("hand"):
        lines.append(f"  cards you may play: {_cards(asks['hand'])}")
    if asks.get("card"):
        lines.append(f"  your card: {_card(asks['card'])}")
    if asks.get("event"):
        lines.append(f"  your event: {_card(asks['event'])}")
    for origin, reach in sorted((asks.get("moves") or {}).items()):
        for block, areas in sorted(reach.items()):
            lines.append(f"  move {block} from {origin}: {reach_text(origin, areas) or '-'}")
    if reach_crosses_border(asks.get("moves") or {}):
        lines.append(f"  {BORDER_MARK}: {BORDER_COST}")
    asked = asks.get("questions") or ([asks["question"]] if asks.get("question") else [])
    if len(asked) > 1:
        lines.append(f"  {len(asked)} questions of this battle, asked together: answer each, in order")
    for q in asked:
        ctx = " ".join(f"{k}={q['context'][k]}" for k in sorted(q.get("context", {})))
        lines.append(f"  question {q['kind']} ({q.get('rule', '')}){question_where(q, v)}: {ctx}".rstrip())
        lines.append(f"  options: {', '.join(q['options'])}")
    return lines


def render_text(view: dict[str, Any]) -> str:
    """The whole view as text: header, board, pools, cards, battles, log, what is asked."""
    parts = [_header(view), since_last(view), _board_table(view), _lists(view), _battles(view), _log(view),
             _asks(view)]
    blocks = ["\n".join(p) for p in parts if p]
    return ("\n" + RULE + "\n").join(blocks) + "\n"


render_view = render_text  # the name the report verb looks for
# The parts of the text, by name, for the board's side panel (boardview.py): the same lines, not a copy.
header_lines, list_lines, battle_lines, log_lines = _header, _lists, _battles, _log


def report_view(rep: dict[str, Any]) -> dict[str, Any]:
    """A ruleset report (view, log, asks, options) as one view, the log filtered again for its side."""
    v = dict(rep["view"])
    side = v["side"]
    if rep.get("log") is not None:
        v["log"] = filter_log(rep.get("log", []), side)
    if rep.get("asks"):
        v["asks"] = {"kind": rep["asks"], **(rep.get("options") or {})}
    if rep.get("defaults"):
        v["defaults"] = list(rep["defaults"])
    if rep.get("earlier"):  # the logs of the reports this player skipped (the CLI's "since your last report")
        v["since"] = filter_log(list(rep["earlier"]), side) + list(v.get("log", []))
    return v


def with_odds(v: dict[str, Any]) -> dict[str, Any]:
    """The view with the side's own odds of each battle still to fight (``odds``: reckoned from
    the view alone, docs/battles.md "Odds from a report"); the text and the HTML page show them."""
    return dict(v, odds=estimates(v, [b["area"] for b in pending_battles(v)]))


def render_report(rep: dict[str, Any]) -> str:
    """A ruleset report as text, with the side's own odds of each battle still to fight."""
    return render_text(with_odds(report_view(rep)))


__all__ = ["battle_lines", "header_lines", "list_lines", "log_lines", "render_text", "render_view", "render_report",
           "report_view", "with_odds", "log_line", "since_last", "pending_battles", "question_where"]
