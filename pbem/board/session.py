"""One player's board session: the report, the draft as it grows click by click, undo and redo,
the live check, and Seal (docs/board.md).

The page never decides legality: every view carries the player's check of the draft as it stands
(the referee's own validation on the side's report, the one ``pbem orders check`` runs), and the
destinations of a selection are the board rules' (the same check, tried move by move). Seal hands
the draft to the sealer the CLI gave, the very code ``pbem orders seal`` runs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pbem.core.board import BoardRules, BoardView, Check, action_from_json
from pbem.core.errors import FormatError, PbemError
from pbem.core.ruleset import Draft, PlayerSide

NO_SUBMIT = ("this game folder is no git clone and has no mail account: mail the file Seal wrote to the referee "
             "or the judge yourself, or set your account with pbem mail account to Submit by mail (docs/board.md "
             "\"Submit\").")
NOTHING_OWED = "you owe nothing at this step: the board shows your report, and there is nothing to seal."
Sealer = Callable[[Draft], list[str]]  # seals a draft as ``orders seal`` does; returns what it says
Submitter = Callable[[], list[str]]  # sends the file the last seal wrote, as ``pbem git submit`` or ``mail send`` does


class Session:
    """The state of one board: a history of drafts (undo/redo move along it), guarded by a lock
    since the server answers each request in its own thread."""

    def __init__(self, report: dict[str, Any], player: PlayerSide, rules: BoardRules,
                 earlier: list[dict[str, Any]], sealer: Sealer | None, submitter: Submitter | None = None,
                 submit_to: str = "") -> None:
        self.report, self.player, self.rules, self.earlier, self.sealer = report, player, rules, earlier, sealer
        self.submitter, self.submit_to = submitter, submit_to
        self.history: list[Draft] = [rules.start(report)]
        self.at = 0
        self.sealed = self.submitted = ""
        self.lock = threading.Lock()

    @property
    def draft(self) -> Draft:
        return self.history[self.at]

    def check(self, draft: Draft) -> Check:
        """The player's check of ``draft``: ok with its notes, or the refusal and the rule it names."""
        if not self.report.get("asks"):
            return Check(False, NOTHING_OWED)
        try:
            notes = self.player.check_draft(draft, self.report) or []
        except PbemError as exc:
            return Check(False, str(exc), str(getattr(exc, "rule", "") or ""))
        return Check(True, notes=tuple(notes))

    def view(self) -> BoardView:
        with self.lock:
            v = self.rules.view(self.report, self.draft, self.earlier)
            return replace(v, check=self.check(self.draft), can_undo=self.at > 0,
                           can_redo=self.at < len(self.history) - 1, sealed=self.sealed,
                           can_submit=self.submitter is not None, submit_to=self.submit_to,
                           submitted=self.submitted)

    def act(self, data: Any) -> BoardView:
        """Apply a click (schemas/board-action.schema.json); a new draft drops what redo held."""
        action = action_from_json(data)
        with self.lock:
            new = self.rules.act(self.report, self.draft, action)
            del self.history[self.at + 1:]
            self.history.append(new)
            self.at += 1
            self.sealed = self.submitted = ""
        return self.view()

    def why(self, data: Any) -> Check:
        """What the check says of the draft with this click applied, the draft left as it is: how a
        click on an area that is not lit tells the player which rule forbids the move."""
        action = action_from_json(data)
        with self.lock:
            return self.check(self.rules.act(self.report, self.draft, action))

    def undo(self) -> BoardView:
        with self.lock:
            self.at = max(0, self.at - 1)
            self.sealed = self.submitted = ""  # what was sealed is no longer the draft shown
        return self.view()

    def redo(self) -> BoardView:
        with self.lock:
            self.at = min(len(self.history) - 1, self.at + 1)
            self.sealed = self.submitted = ""
        return self.view()

    def dests(self, data: Any) -> list[str]:
        pieces = data.get("pieces") if isinstance(data, dict) else None
        if not isinstance(pieces, list) or not all(isinstance(p, str) for p in pieces):
            raise FormatError("a destinations request names the selected pieces: {\"pieces\": [\"NAME\", ...]}.")
        with self.lock:
            return list(self.rules.dests(self.report, self.draft, tuple(pieces)))

    def seal(self) -> BoardView:
        """Seal the draft as it stands, through the CLI's own sealer (refused while the check refuses)."""
        if not self.report.get("asks"):
            raise FormatError(NOTHING_OWED)
        if self.sealer is None:
            raise FormatError("this board cannot seal: no game folder is known (give --game GAME).")
        with self.lock:
            draft = self.draft
        self.sealed = "\n".join(self.sealer(draft))
        self.submitted = ""
        return self.view()

    def submit(self) -> BoardView:
        """Send the order Seal just wrote, through the transport's own code (``pbem git submit`` or
        ``pbem mail send``); refused before a Seal, or after a change the sealed file no longer holds.
        A send that fails says why and leaves nothing marked submitted."""
        if self.submitter is None:
            raise FormatError(NO_SUBMIT)
        if not self.sealed:
            raise FormatError("Seal the orders first: Submit sends the file Seal wrote, and nothing is sealed "
                              "since the last change.")
        self.submitted = "\n".join(self.submitter())
        return self.view()
