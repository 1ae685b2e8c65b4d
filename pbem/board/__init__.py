"""The board in the browser (``pbem board``, docs/board.md): a local page on 127.0.0.1 that draws a
side's report and collects its orders by clicks. Game-agnostic: a game's board comes through the
seam (pbem.core.board); this package names none."""
