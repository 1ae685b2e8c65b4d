"""The text of an HTML mail part as a browser shows it, so that armor pasted into an HTML-only mail reads right.

Mail clients that send HTML only (Thunderbird, Apple Mail, Outlook) write each line of a
pasted text as ``line<br>`` followed by a newline in the source, or one ``<div>``/``<p>`` per
line. A browser shows one line break for each: source newlines are white space, which HTML
collapses to one space (and drops at a line's start and end); ``<br>`` breaks the line; a block
element starts and ends on a line of its own, without blank lines between blocks (as the
lines of a pasted text are shown); ``<pre>`` keeps its line breaks; entities decode; the
contents of ``<head>``, ``<style>`` and ``<script>`` are not shown. Each line loses the white
space at its ends (the armor reader refuses indented armor in plain text, protocol §3, but an
HTML editor's indentation is not the sender's). Standard library only.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "center", "dd", "div", "dl", "dt", "fieldset", "figcaption",
    "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol",
    "p", "pre", "section", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "body", "html",
})
HIDDEN = frozenset({"head", "script", "style", "title", "template"})
_SPACE = re.compile(r"[ \t\n\r\f]+")  # HTML's white space (a no-break space is not white space to HTML)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.pre = 0
        self.hidden = 0

    def _at_line_start(self) -> bool:
        text = "".join(self.out[-1:])
        return not text or text.endswith("\n")

    def _break(self) -> None:
        if self.out and not self._at_line_start():
            self.out.append("\n")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in HIDDEN:
            self.hidden += 1
        elif tag == "br":
            self.out.append("\n")
        elif tag in BLOCKS:
            self._break()
            self.pre += tag == "pre"

    def handle_endtag(self, tag: str) -> None:
        if tag in HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in BLOCKS:
            self._break()
            self.pre = max(0, self.pre - (tag == "pre"))

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        if self.pre:
            self.out.append(data)
            return
        text = _SPACE.sub(" ", data)
        if self._at_line_start():
            text = text.lstrip(" ")
        if text:
            self.out.append(text)


def text_of(html: str) -> str:
    """The lines a browser shows for ``html``, each without white space at its ends (a no-break space is a space)."""
    parser = _Text()
    try:
        parser.feed(html)
        parser.close()
    except (AssertionError, ValueError):  # html.parser's own complaints about hopeless markup: keep what was read
        pass
    lines = "".join(parser.out).replace("\xa0", " ").split("\n")
    return "\n".join(line.strip(" \t") for line in lines).strip("\n") + "\n"
