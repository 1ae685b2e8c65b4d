"""What a player's next draft holds with no referee (``pbem status``; docs/hammer-peer.md §8): nobody else is
there to tell it, so the status names the draft's shape for what the side owes, one sentence each."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

WINTER = {
    "england": "a winter draft: a [plan] table of docs/orders.md \"Winter\" (homes, disband, release, edward, "
               "edward_company), your blocks named by name (7.1, 7.3, 7.4); an empty draft takes every default",
    "scotland": "a winter draft: a [plan] table of docs/orders.md \"Winter\" (homes, moray, king, wallace, disband, "
                "release; builds = {AREA = [\"draw\"]} for the draws, 7.62), your blocks named by name (7.1-7.5); "
                "an empty draft takes every default",
    "builds": "a winter draft: a [plan] table with builds = {AREA = [\"step:BLOCK\", ...]} (docs/orders.md "
              "\"Winter\"), your blocks named by name (7.6); an empty draft builds by default",
}

WHICH = "which label is which card or block: below, in your own folder"


def draft_hint(owed: str | None, public: Mapping[str, Any], side: str) -> str:
    """The shape of the side's next draft for what it owes (``owed``: the ruleset's kind, None for nothing)."""
    if owed == "card":
        hand = ", ".join(public["game"]["hands"].get(side, []))
        return (f"a card draft: card = one label of your hand ({hand}), and [if_player1] moves naming your blocks "
                f"by handle (docs/orders.md; {WHICH}); an Event card with its [event] table (3.1)")
    if owed == "moves":
        return (f"a moves draft: moves (and pins, main_attack) as in docs/orders.md, your blocks named by handle "
                f"(4.0; {WHICH})")
    if owed == "winter":
        stage = str(public.get("winter", {}).get("stage", "england"))
        return WINTER.get(stage, WINTER["builds"])
    return "an empty draft: you owe no order this round, and your commitment carries your chain link (protocol §13.3)"
