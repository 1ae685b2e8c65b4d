"""Writes the mail corpus: one .eml per shape a real mail client gives a mail that carries an order.

Each fixture is written as that client writes it (its MIME structure, headers, transfer
encodings, line ends and HTML), around one real armored order, ``order.asc``, made with the
test helpers (a rock-paper-scissors game, tests/support). The judge's reader must take the
same envelope, byte for byte, out of every one (test_judge_mail_corpus.py).

    python make_corpus.py              # rewrite every .eml around the order.asc beside this file
    python make_corpus.py --new-order  # first make a new order.asc
"""

from __future__ import annotations

import base64
import quopri
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLAYER, JUDGE = "Ann North <north@player.test>", "pbem judge <judge@judge.test>"
DATE = "Tue, 24 Nov 2026 09:14:03 +0100"
SIGNATURE = "-- "  # the signature separator, with its space


def new_order() -> str:
    """A real sealed order of a started rock-paper-scissors game, armored."""
    sys.path.insert(0, str(HERE.parents[2]))  # tests/: support.rps_game
    from pbem.core import game, identity, ruleset

    ruleset.register("rps", "support.rps_game:RpsRuleset")
    keys = {s: identity.generate(s) for s in ("north", "south")}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "g"
        game.new_game(folder, "rps", "standard", {}, identity.generate("judge"), {s: k.public for s, k in keys.items()})
        return game.write_order(folder, keys["north"], "north", 0, {"side": "north", "step": 0, "throw": "paper"})


def crlf(text: str) -> bytes:
    return text.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")


def qp(text: str, charset: str = "utf-8") -> str:
    """Quoted-printable as clients write it: soft breaks at 76 columns, '=' as =3D."""
    return quopri.encodestring(text.replace("\r\n", "\n").encode(charset)).decode("ascii")


def b64(data: bytes, width: int = 76) -> str:
    text = base64.b64encode(data).decode("ascii")
    return "\n".join(text[i:i + width] for i in range(0, len(text), width)) + "\n"


def lines(order: str) -> list[str]:
    return order.strip("\n").split("\n")


def parts(boundary: str, *items: tuple[str, str]) -> str:
    """A multipart body: each (part headers, part body) after its boundary line, then the closing line."""
    return "".join(f"--{boundary}\n{head}\n\n{body}\n" for head, body in items) + f"--{boundary}--\n"


# --- Thunderbird (115): UTF-8, format=flowed plain text; HTML source indented, "<br>" and a newline per line

def thunderbird(mid: str, subject: str, content_type: str, body: str) -> bytes:
    """Thunderbird writes a multipart's Content-Type first, a single part's last."""
    first, last = (content_type + "\n", "") if "multipart/" in content_type else ("", "\n" + content_type)
    return crlf(f"""{first}Message-ID: <{mid}@player.test>
Date: {DATE}
MIME-Version: 1.0
User-Agent: Mozilla Thunderbird
Content-Language: en-GB
To: {JUDGE}
From: {PLAYER}
Subject: {subject}{last}

{body}""")


def thunderbird_plain(order: str) -> bytes:
    return thunderbird("8f1c2a40-7d1e-4a6b-9c3e-2b5d1f0a9e11", "orders step 0",
                       "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit",
                       f"Hello judge,\n\nhere are my orders for step 0:\n\n{order}\nAnn\n")


def thunderbird_html_only(order: str) -> bytes:
    pasted = "<br>\n      ".join(lines(order))
    html = f"""<!DOCTYPE html>
<html>
  <head>

    <meta http-equiv="content-type" content="text/html; charset=UTF-8">
  </head>
  <body>
    <p>Hello judge,</p>
    <p>my orders&nbsp;for step 0:</p>
    <p>{pasted}<br>
    </p>
    <p>Ann<br>
    </p>
  </body>
</html>
"""
    return thunderbird("3e9a7c11-52b4-4f0e-8d2a-6c1b0e4f7a20", "Re: RE: game rps: step 0, you owe orders",
                       "Content-Type: text/html; charset=UTF-8\nContent-Transfer-Encoding: 7bit", html)


def thunderbird_attachment(order: str) -> bytes:
    boundary = "------------A4dfLmQ0vVQ2Tw7bGSZe1XoN"
    body = "This is a multi-part message in MIME format.\n" + parts(
        boundary,
        ("Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit",
         "My orders are attached.\n"),
        ('Content-Type: application/pgp-signature; name="orders.asc"\n'
         'Content-Disposition: attachment; filename="orders.asc"\nContent-Transfer-Encoding: base64',
         b64(order.encode("ascii"), 72)))
    return thunderbird("c0d3a5f2-1b7e-4e8f-a2c9-5d7e3f1b0c42", "orders",
                       f'Content-Type: multipart/mixed; boundary="{boundary}"', body)


# --- Apple Mail (16): quoted-printable, tab-folded headers, one <div> per line or "<br>" and a newline

def apple_mail(mid: str, content_type: str, body: str) -> bytes:
    return crlf(f"""From: {PLAYER}
{content_type}
Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3774.500.171.1.1\\))
Subject: orders
Message-Id: <{mid}@player.test>
Date: {DATE}
To: {JUDGE}
X-Mailer: Apple Mail (2.3774.500.171.1.1)

{body}""")


APPLE_BODY = ('<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head>'
              '<body style="overflow-wrap: break-word; -webkit-nbsp-mode: space; line-break: after-white-space;">')
APPLE_QP = "Content-Transfer-Encoding: quoted-printable\nContent-Type: text/{};\n\tcharset=utf-8"


def apple_mail_html_only(order: str) -> bytes:
    """A pasted text as Apple Mail writes it: in one ``<div>``, each line ending ``<br>`` and a newline."""
    pasted = "<br>\n".join(lines(order))
    html = (APPLE_BODY + f"<div>Here are my orders:</div><div><br></div><div>{pasted}<br><div><br></div>"
            "<div>Ann</div></div></body></html>")
    return apple_mail("5B0E1C7A-3F2D-4E8B-9A61-0C7D2E4F8B13",
                      "Content-Type: text/html;\n\tcharset=utf-8\nContent-Transfer-Encoding: quoted-printable",
                      qp(html))


def apple_mail_alternative(order: str) -> bytes:
    divs = "".join(f"<div>{line}</div>" for line in lines(order))
    html = APPLE_BODY + f"<div>Orders — step 0</div><div><br></div>{divs}</body></html>"
    boundary = "Apple-Mail=_7C1A9E52-3B40-4D6F-8E2A-91F05C3D7B68"
    body = "\n" + parts(boundary, (APPLE_QP.format("plain"), qp("Orders — step 0\n\n" + order)),
                        (APPLE_QP.format("html"), qp(html)))
    return apple_mail("A1F3C5E7-0B2D-4F6A-8C9E-1D3B5F7A9C2E",
                      f'Content-Type: multipart/alternative;\n\tboundary="{boundary}"', body)


# --- Outlook (16, Windows): us-ascii or windows-1252, Word's HTML with one <p class=MsoNormal> per line

OUTLOOK_HEAD = """<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" \
xmlns:w="urn:schemas-microsoft-com:office:word" xmlns:m="http://schemas.microsoft.com/office/2004/12/omml" \
xmlns="http://www.w3.org/TR/REC-html40"><head><meta http-equiv=Content-Type content="text/html; charset=us-ascii">\
<meta name=Generator content="Microsoft Word 15 (filtered medium)"><style><!--
/* Font Definitions */
@font-face
\t{font-family:"Cambria Math";
\tpanose-1:2 4 5 3 5 4 6 3 2 4;}
p.MsoNormal, li.MsoNormal, div.MsoNormal
\t{margin:0cm;
\tfont-size:11.0pt;
\tfont-family:"Calibri",sans-serif;}
--></style><!--[if gte mso 9]><xml>
<o:shapedefaults v:ext="edit" spidmax="1026" />
</xml><![endif]--></head><body lang=EN-GB link="#0563C1" vlink="#954F72" style='word-wrap:break-word'>\
<div class=WordSection1>"""
OUTLOOK_MULTIPART = "This is a multipart message in MIME format.\n\n"
OUTLOOK_ASCII = 'Content-Type: text/{};\n\tcharset="us-ascii"\nContent-Transfer-Encoding: {}'


def outlook(mid: str, subject: str, thread: str, content_type: str, body: str, language: str = "en-gb") -> bytes:
    return crlf(f"""From: {PLAYER}
To: {JUDGE}
Subject: {subject}
Date: {DATE}
Message-ID: <{mid}@player.test>
MIME-Version: 1.0
{content_type}
X-Mailer: Microsoft Outlook 16.0
Thread-Index: {thread}
Content-Language: {language}

{body}""")


def outlook_alternative(order: str) -> bytes:
    paras = "".join(f"<p class=MsoNormal>{line}<o:p></o:p></p>" for line in lines(order))
    html = (OUTLOOK_HEAD + "<p class=MsoNormal>Hello,<o:p></o:p></p><p class=MsoNormal><o:p>&nbsp;</o:p></p>"
            + paras + "<p class=MsoNormal><o:p>&nbsp;</o:p></p><p class=MsoNormal>Ann<o:p></o:p></p></div>"
            "</body></html>")
    boundary = "----=_NextPart_000_0001_01DB3E67.ABEF8490"
    body = OUTLOOK_MULTIPART + parts(boundary, (OUTLOOK_ASCII.format("plain", "7bit"), f"Hello,\n\n{order}\nAnn\n"),
                                     (OUTLOOK_ASCII.format("html", "quoted-printable"), qp(html)))
    return outlook("000001db3e5f$4a2b1c90$de6f55b0$", "orders", "Ads+X0oYbDq3qZx9T2CqfH1k2L8W5A==",
                   f'Content-Type: multipart/alternative;\n\tboundary="{boundary}"', body)


def outlook_plain_quoted_printable(order: str) -> bytes:
    text = "Grüße aus dem Norden – meine Befehle:\n\n" + order + "\nAnn\n"
    return outlook("000201db3e60$1c2d3e40$54878ac0$", "AW: rps: step 0, you owe orders",
                   "AdtLYBwtP2Xb7r1uQZCvVq9m3f1WqQ==",
                   'Content-Type: text/plain;\n\tcharset="windows-1252"\nContent-Transfer-Encoding: quoted-printable',
                   qp(text, "windows-1252"), "de")


def outlook_attachment_with_byte_order_mark(order: str) -> bytes:
    """Saved in Windows Notepad as "UTF-8 with BOM", then attached in Outlook."""
    saved = b"\xef\xbb\xbf" + order.replace("\n", "\r\n").encode("ascii")
    boundary = "----=_NextPart_000_0003_01DB3E69.E0F40200"
    body = OUTLOOK_MULTIPART + parts(
        boundary, (OUTLOOK_ASCII.format("plain", "7bit"), "Orders attached.\n\n"),
        ('Content-Type: application/octet-stream;\n\tname="orders.asc"\nContent-Transfer-Encoding: base64\n'
         'Content-Disposition: attachment;\n\tfilename="orders.asc"', b64(saved)))
    return outlook("000301db3e61$7e8f9a00$7baece00$", "orders", "AdtLYX6PmvZ0j1ySR3yYhA6wB0c5Ag==",
                   f'Content-Type: multipart/mixed;\n\tboundary="{boundary}"', body)


# --- Gmail (web): text and HTML always, the HTML on one long line in quoted-printable

def gmail(mid: str, subject: str, boundary: str, plain: str, html: str, references: str = "") -> bytes:
    refs = f"References: {references}\nIn-Reply-To: {references}\n" if references else ""
    body = parts(boundary, ('Content-Type: text/plain; charset="UTF-8"', plain),
                 ('Content-Type: text/html; charset="UTF-8"\nContent-Transfer-Encoding: quoted-printable', qp(html)))
    return crlf(f"""MIME-Version: 1.0
Date: {DATE}
{refs}Message-ID: <{mid}@mail.gmail.com>
Subject: {subject}
From: {PLAYER}
To: {JUDGE}
Content-Type: multipart/alternative; boundary="{boundary}"

{body}""")


def gmail_alternative(order: str) -> bytes:
    html = '<div dir="ltr"><div>My orders:</div><div><br></div>' + "<br>".join(lines(order)) + "<br></div>\n"
    return gmail("CAGh7xQ9v1dRk3Zr0n5e2pPw8Jc4m6T1uYqL0bX3sK7fN2aH5wg", "orders", "0000000000004b8e2a0627a1f3c9",
                 f"My orders:\n\n{order}", html)


def gmail_forwarded(order: str) -> bytes:
    fwd = ("---------- Forwarded message ---------\nFrom: Ann North &lt;<a href=\"mailto:ann@home.test\">"
           "ann@home.test</a>&gt;\nDate: Mon, 23 Nov 2026 at 22:10\nSubject: my orders\n"
           "To: &lt;<a href=\"mailto:north@player.test\">north@player.test</a>&gt;\n")
    html = ('<div dir="ltr"><br><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">'
            + fwd.replace("\n", "<br>") + '</div><br><br><div dir="ltr">' + "<br>".join(lines(order))
            + "<br></div></div></div>\n")
    plain_fwd = re.sub(r"</?a[^>]*>", "", fwd).replace("&lt;", "<").replace("&gt;", ">")
    return gmail("CAGh7xQ8pZ2eLk4Tq1m6V3nRw9Xb5c7J0sHd2yF4uN8aK1oE3rg", "Fwd: my orders",
                 "000000000000c17d5e0627a1f9aa", f"\n\n{plain_fwd}\n\n{order}", html,
                 "<CAF9kA2b7Xc1@mail.gmail.com>")


# --- mutt (2.2): LF line ends as saved from a mailbox, us-ascii, Content-Disposition: inline

def mutt(mid: str, subject: str, content_type: str, body: str) -> bytes:
    return f"""Date: {DATE}
From: {PLAYER}
To: {JUDGE}
Subject: {subject}
Message-ID: <{mid}@player.test>
MIME-Version: 1.0
{content_type}
Content-Disposition: inline
User-Agent: Mutt/2.2.9 (2022-11-12)

{body}""".encode("ascii")


MUTT_TEXT = "Content-Type: text/plain; charset=us-ascii"


def mutt_plain(order: str) -> bytes:
    return mutt("aUQ2d8kGm3Xr0vTz", "orders", MUTT_TEXT, f"{order}\n{SIGNATURE}\nAnn\n")


def mutt_attachment(order: str) -> bytes:
    boundary = "Yk8dGm3XcQ0vTz4h"
    body = "\n" + parts(boundary, (MUTT_TEXT + "\nContent-Disposition: inline", "Orders attached.\n"),
                        (MUTT_TEXT + '\nContent-Disposition: attachment; filename="orders.asc"', order))
    return mutt("aUQ2ePq0Lm7Vb1Yw", "orders", f'Content-Type: multipart/mixed; boundary="{boundary}"', body)


def mutt_forwarded_as_attachment(order: str) -> bytes:
    """mutt's forward as a message/rfc822 attachment, of a mail the player sent from another address."""
    original = f"""Date: Mon, 23 Nov 2026 22:10:41 +0100
From: Ann North <ann@home.test>
To: north@player.test
Subject: my orders
Message-ID: <aUQ1xZk3Hp6Ud9Qe@home.test>
MIME-Version: 1.0
{MUTT_TEXT}
Content-Disposition: inline

{order}"""
    boundary = "J2vLq9XbWm4Tz0Yk"
    body = "\n" + parts(boundary, (MUTT_TEXT + "\nContent-Disposition: inline", "Forwarding my orders from home.\n"),
                        ("Content-Type: message/rfc822\nContent-Disposition: inline", original))
    return mutt("aUQ2fRt5Nq8Wc2Zx", "[ann@home.test: my orders] (fwd)",
                f'Content-Type: multipart/mixed; boundary="{boundary}"', body)


SHAPES: dict[str, Callable[[str], bytes]] = {
    "thunderbird-plain-flowed": thunderbird_plain,
    "thunderbird-html-only": thunderbird_html_only,
    "thunderbird-attachment": thunderbird_attachment,
    "apple-mail-html-only-quoted-printable": apple_mail_html_only,
    "apple-mail-alternative": apple_mail_alternative,
    "outlook-alternative": outlook_alternative,
    "outlook-plain-quoted-printable-windows-1252": outlook_plain_quoted_printable,
    "outlook-attachment-byte-order-mark": outlook_attachment_with_byte_order_mark,
    "gmail-alternative": gmail_alternative,
    "gmail-forwarded": gmail_forwarded,
    "mutt-plain-signature": mutt_plain,
    "mutt-attachment": mutt_attachment,
    "mutt-forwarded-as-attachment": mutt_forwarded_as_attachment,
}


def render(order: str) -> dict[str, bytes]:
    """Every fixture's name and bytes, around ``order``."""
    return {f"{name}.eml": shape(order) for name, shape in SHAPES.items()}


def main() -> None:
    if "--new-order" in sys.argv:
        (HERE / "order.asc").write_text(new_order(), encoding="ascii")
    order = (HERE / "order.asc").read_text(encoding="ascii")
    for name, data in render(order).items():
        (HERE / name).write_bytes(data)


if __name__ == "__main__":
    main()
