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


def thunderbird_plain(order: str) -> bytes:
    return crlf(f"""Message-ID: <8f1c2a40-7d1e-4a6b-9c3e-2b5d1f0a9e11@player.test>
Date: {DATE}
MIME-Version: 1.0
User-Agent: Mozilla Thunderbird
Content-Language: en-GB
To: {JUDGE}
From: {PLAYER}
Subject: orders step 0
Content-Type: text/plain; charset=UTF-8; format=flowed
Content-Transfer-Encoding: 7bit

Hello judge,

here are my orders for step 0:

{order}
Ann
""")


def thunderbird_html_only(order: str) -> bytes:
    body = "<br>\n      ".join(lines(order))
    return crlf(f"""Message-ID: <3e9a7c11-52b4-4f0e-8d2a-6c1b0e4f7a20@player.test>
Date: {DATE}
MIME-Version: 1.0
User-Agent: Mozilla Thunderbird
Content-Language: en-GB
To: {JUDGE}
From: {PLAYER}
Subject: Re: RE: game rps: step 0, you owe orders
Content-Type: text/html; charset=UTF-8
Content-Transfer-Encoding: 7bit

<!DOCTYPE html>
<html>
  <head>

    <meta http-equiv="content-type" content="text/html; charset=UTF-8">
  </head>
  <body>
    <p>Hello judge,</p>
    <p>my orders&nbsp;for step 0:</p>
    <p>{body}<br>
    </p>
    <p>Ann<br>
    </p>
  </body>
</html>
""")


def thunderbird_attachment(order: str) -> bytes:
    return crlf(f"""Content-Type: multipart/mixed; boundary="------------A4dfLmQ0vVQ2Tw7bGSZe1XoN"
Message-ID: <c0d3a5f2-1b7e-4e8f-a2c9-5d7e3f1b0c42@player.test>
Date: {DATE}
MIME-Version: 1.0
User-Agent: Mozilla Thunderbird
Content-Language: en-GB
To: {JUDGE}
From: {PLAYER}
Subject: orders

This is a multi-part message in MIME format.
--------------A4dfLmQ0vVQ2Tw7bGSZe1XoN
Content-Type: text/plain; charset=UTF-8; format=flowed
Content-Transfer-Encoding: 7bit

My orders are attached.

--------------A4dfLmQ0vVQ2Tw7bGSZe1XoN
Content-Type: application/pgp-signature; name="orders.asc"
Content-Disposition: attachment; filename="orders.asc"
Content-Transfer-Encoding: base64

{b64(order.encode("ascii"), 72)}
--------------A4dfLmQ0vVQ2Tw7bGSZe1XoN--
""")


def apple_mail_html_only(order: str) -> bytes:
    """A pasted text as Apple Mail 16 writes it: in one ``<div>``, each line ending ``<br>`` and a newline."""
    pasted = "<br>\n".join(lines(order))
    html = ('<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head>'
            '<body style="overflow-wrap: break-word; -webkit-nbsp-mode: space; line-break: after-white-space;">'
            f'<div>Here are my orders:</div><div><br></div><div>{pasted}<br><div><br></div><div>Ann</div></div>'
            '</body></html>')
    return crlf(f"""From: Ann North <north@player.test>
Content-Type: text/html;
\tcharset=utf-8
Content-Transfer-Encoding: quoted-printable
Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3774.500.171.1.1\\))
Subject: orders
Message-Id: <5B0E1C7A-3F2D-4E8B-9A61-0C7D2E4F8B13@player.test>
Date: {DATE}
To: {JUDGE}
X-Mailer: Apple Mail (2.3774.500.171.1.1)

{qp(html)}""")


def apple_mail_alternative(order: str) -> bytes:
    divs = "".join(f"<div>{line}</div>" for line in lines(order))
    html = ('<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head>'
            '<body style="overflow-wrap: break-word; -webkit-nbsp-mode: space; line-break: after-white-space;">'
            f'<div>Orders — step 0</div><div><br></div>{divs}</body></html>')
    return crlf(f"""From: Ann North <north@player.test>
Content-Type: multipart/alternative;
\tboundary="Apple-Mail=_7C1A9E52-3B40-4D6F-8E2A-91F05C3D7B68"
Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3774.500.171.1.1\\))
Subject: orders
Message-Id: <A1F3C5E7-0B2D-4F6A-8C9E-1D3B5F7A9C2E@player.test>
Date: {DATE}
To: {JUDGE}
X-Mailer: Apple Mail (2.3774.500.171.1.1)


--Apple-Mail=_7C1A9E52-3B40-4D6F-8E2A-91F05C3D7B68
Content-Transfer-Encoding: quoted-printable
Content-Type: text/plain;
\tcharset=utf-8

{qp("Orders — step 0" + chr(10) + chr(10) + order)}
--Apple-Mail=_7C1A9E52-3B40-4D6F-8E2A-91F05C3D7B68
Content-Transfer-Encoding: quoted-printable
Content-Type: text/html;
\tcharset=utf-8

{qp(html)}
--Apple-Mail=_7C1A9E52-3B40-4D6F-8E2A-91F05C3D7B68--
""")


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


def outlook_alternative(order: str) -> bytes:
    paras = "".join(f"<p class=MsoNormal>{line}<o:p></o:p></p>" for line in lines(order))
    html = (OUTLOOK_HEAD + "<p class=MsoNormal>Hello,<o:p></o:p></p><p class=MsoNormal><o:p>&nbsp;</o:p></p>"
            + paras + "<p class=MsoNormal><o:p>&nbsp;</o:p></p><p class=MsoNormal>Ann<o:p></o:p></p></div>"
            "</body></html>")
    plain = "Hello,\n\n" + order + "\nAnn\n"
    return crlf(f"""From: Ann North <north@player.test>
To: {JUDGE}
Subject: orders
Date: {DATE}
Message-ID: <000001db3e5f$4a2b1c90$de6f55b0$@player.test>
MIME-Version: 1.0
Content-Type: multipart/alternative;
\tboundary="----=_NextPart_000_0001_01DB3E67.ABEF8490"
X-Mailer: Microsoft Outlook 16.0
Thread-Index: Ads+X0oYbDq3qZx9T2CqfH1k2L8W5A==
Content-Language: en-gb

This is a multipart message in MIME format.

------=_NextPart_000_0001_01DB3E67.ABEF8490
Content-Type: text/plain;
\tcharset="us-ascii"
Content-Transfer-Encoding: 7bit

{plain}
------=_NextPart_000_0001_01DB3E67.ABEF8490
Content-Type: text/html;
\tcharset="us-ascii"
Content-Transfer-Encoding: quoted-printable

{qp(html)}
------=_NextPart_000_0001_01DB3E67.ABEF8490--
""")


def outlook_plain_quoted_printable(order: str) -> bytes:
    text = "Grüße aus dem Norden – meine Befehle:\n\n" + order + "\nAnn\n"
    return crlf(f"""From: Ann North <north@player.test>
To: {JUDGE}
Subject: AW: rps: step 0, you owe orders
Date: {DATE}
Message-ID: <000201db3e60$1c2d3e40$54878ac0$@player.test>
MIME-Version: 1.0
Content-Type: text/plain;
\tcharset="windows-1252"
Content-Transfer-Encoding: quoted-printable
X-Mailer: Microsoft Outlook 16.0
Thread-Index: AdtLYBwtP2Xb7r1uQZCvVq9m3f1WqQ==
Content-Language: de

{qp(text, "windows-1252")}""")


def outlook_attachment_with_byte_order_mark(order: str) -> bytes:
    """Saved in Windows Notepad as "UTF-8 with BOM", then attached in Outlook."""
    saved = b"\xef\xbb\xbf" + order.replace("\n", "\r\n").encode("ascii")
    return crlf(f"""From: Ann North <north@player.test>
To: {JUDGE}
Subject: orders
Date: {DATE}
Message-ID: <000301db3e61$7e8f9a00$7baece00$@player.test>
MIME-Version: 1.0
Content-Type: multipart/mixed;
\tboundary="----=_NextPart_000_0003_01DB3E69.E0F40200"
X-Mailer: Microsoft Outlook 16.0
Thread-Index: AdtLYX6PmvZ0j1ySR3yYhA6wB0c5Ag==
Content-Language: en-gb

This is a multipart message in MIME format.

------=_NextPart_000_0003_01DB3E69.E0F40200
Content-Type: text/plain;
\tcharset="us-ascii"
Content-Transfer-Encoding: 7bit

Orders attached.


------=_NextPart_000_0003_01DB3E69.E0F40200
Content-Type: application/octet-stream;
\tname="orders.asc"
Content-Transfer-Encoding: base64
Content-Disposition: attachment;
\tfilename="orders.asc"

{b64(saved)}
------=_NextPart_000_0003_01DB3E69.E0F40200--
""")


def gmail_alternative(order: str) -> bytes:
    html = '<div dir="ltr"><div>My orders:</div><div><br></div>' + "<br>".join(lines(order)) + "<br></div>\n"
    return crlf(f"""MIME-Version: 1.0
Date: {DATE}
Message-ID: <CAGh7xQ9v1dRk3Zr0n5e2pPw8Jc4m6T1uYqL0bX3sK7fN2aH5wg@mail.gmail.com>
Subject: orders
From: Ann North <north@player.test>
To: {JUDGE}
Content-Type: multipart/alternative; boundary="0000000000004b8e2a0627a1f3c9"

--0000000000004b8e2a0627a1f3c9
Content-Type: text/plain; charset="UTF-8"

My orders:

{order}
--0000000000004b8e2a0627a1f3c9
Content-Type: text/html; charset="UTF-8"
Content-Transfer-Encoding: quoted-printable

{qp(html)}
--0000000000004b8e2a0627a1f3c9--
""")


def gmail_forwarded(order: str) -> bytes:
    fwd = ("---------- Forwarded message ---------\nFrom: Ann North &lt;<a href=\"mailto:ann@home.test\">"
           "ann@home.test</a>&gt;\nDate: Mon, 23 Nov 2026 at 22:10\nSubject: my orders\n"
           "To: &lt;<a href=\"mailto:north@player.test\">north@player.test</a>&gt;\n")
    html = ('<div dir="ltr"><br><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">'
            + fwd.replace("\n", "<br>") + '</div><br><br><div dir="ltr">' + "<br>".join(lines(order))
            + "<br></div></div></div>\n")
    plain_fwd = fwd.replace("&lt;", "<").replace("&gt;", ">")
    for tag in ('<a href="mailto:ann@home.test">', '<a href="mailto:north@player.test">', "</a>"):
        plain_fwd = plain_fwd.replace(tag, "")
    return crlf(f"""MIME-Version: 1.0
Date: {DATE}
References: <CAF9kA2b7Xc1@mail.gmail.com>
In-Reply-To: <CAF9kA2b7Xc1@mail.gmail.com>
Message-ID: <CAGh7xQ8pZ2eLk4Tq1m6V3nRw9Xb5c7J0sHd2yF4uN8aK1oE3rg@mail.gmail.com>
Subject: Fwd: my orders
From: Ann North <north@player.test>
To: {JUDGE}
Content-Type: multipart/alternative; boundary="000000000000c17d5e0627a1f9aa"

--000000000000c17d5e0627a1f9aa
Content-Type: text/plain; charset="UTF-8"



{plain_fwd}

{order}
--000000000000c17d5e0627a1f9aa
Content-Type: text/html; charset="UTF-8"
Content-Transfer-Encoding: quoted-printable

{qp(html)}
--000000000000c17d5e0627a1f9aa--
""")


def mutt_plain(order: str) -> bytes:
    return f"""Date: Tue, 24 Nov 2026 09:14:03 +0100
From: Ann North <north@player.test>
To: {JUDGE}
Subject: orders
Message-ID: <aUQ2d8kGm3Xr0vTz@player.test>
MIME-Version: 1.0
Content-Type: text/plain; charset=us-ascii
Content-Disposition: inline
User-Agent: Mutt/2.2.9 (2022-11-12)

{order}
{SIGNATURE}
Ann
""".encode("ascii")


def mutt_attachment(order: str) -> bytes:
    return f"""Date: Tue, 24 Nov 2026 09:14:03 +0100
From: Ann North <north@player.test>
To: {JUDGE}
Subject: orders
Message-ID: <aUQ2ePq0Lm7Vb1Yw@player.test>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="Yk8dGm3XcQ0vTz4h"
Content-Disposition: inline
User-Agent: Mutt/2.2.9 (2022-11-12)


--Yk8dGm3XcQ0vTz4h
Content-Type: text/plain; charset=us-ascii
Content-Disposition: inline

Orders attached.

--Yk8dGm3XcQ0vTz4h
Content-Type: text/plain; charset=us-ascii
Content-Disposition: attachment; filename="orders.asc"

{order}
--Yk8dGm3XcQ0vTz4h--
""".encode("ascii")


def mutt_forwarded_as_attachment(order: str) -> bytes:
    """mutt's forward as a message/rfc822 attachment, of a mail the player sent from another address."""
    return f"""Date: Tue, 24 Nov 2026 09:14:03 +0100
From: Ann North <north@player.test>
To: {JUDGE}
Subject: [ann@home.test: my orders] (fwd)
Message-ID: <aUQ2fRt5Nq8Wc2Zx@player.test>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="J2vLq9XbWm4Tz0Yk"
Content-Disposition: inline
User-Agent: Mutt/2.2.9 (2022-11-12)


--J2vLq9XbWm4Tz0Yk
Content-Type: text/plain; charset=us-ascii
Content-Disposition: inline

Forwarding my orders from home.

--J2vLq9XbWm4Tz0Yk
Content-Type: message/rfc822
Content-Disposition: inline

Date: Mon, 23 Nov 2026 22:10:41 +0100
From: Ann North <ann@home.test>
To: north@player.test
Subject: my orders
Message-ID: <aUQ1xZk3Hp6Ud9Qe@home.test>
MIME-Version: 1.0
Content-Type: text/plain; charset=us-ascii
Content-Disposition: inline

{order}
--J2vLq9XbWm4Tz0Yk--
""".encode("ascii")


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
