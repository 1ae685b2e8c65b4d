"""What a Hammer block opened before the end is checked against at once (docs/hammer-peer.md §5, protocol §13.10).

``check_facts`` (peer_setup.py) sees the facts alone; this sees them with the public state of the entry they open
in, so a lie a winter's seals told shows the moment the rules reveal one of them (a battle, 5.1; a Herald, 3.12),
not only at the final audit:

- one key per block (8.0, 7.6): a handle opened as a block that stands under another key of the public state (its
  name, openly; a handle seen or opened as it; a dead block, 5.8) convicts its side;
- a handle the last builds sealed (7.6; ``builds``, peer_winter.sealed_map): a noble but Moray was sealed in one
  of his homes (7.1 sends every other noble home before the builds); its block stood in the area it was
  sealed in, if its place was public; its strength is no less than it had and more only by the RPs of that area
  (English steps only on infantry and nobles, 7.63), counted over every such handle opened so far; its nobles and
  other blocks no more than the count of nobles the builds claimed says (9.0);
- a noble index sealed with the builds names one of the handles those builds sealed (3.12);
- a block whose sealed strength an Event raised (Victuals, a Pillage's steps) had room for the steps (2.11).

What waits for the final audit: a block whose strength before the builds was hidden (its old handle never opened)
and the whole of every winter order (peer_winter.check with every fact).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.peer.rules import FactLie
from pbem.hammer.rules.blocks import spec
from pbem.hammer.rules.hidden import PREFIX, block_of, index_of
from pbem.hammer.rules.state import DEAD
from pbem.hammer.rules.winter import ENGLISH_BUILDABLE, MORAY


def check_opened(public: Mapping[str, Any], side: str, opened: Mapping[str, Any],
                 revealed: Mapping[str, Any]) -> None:
    """Raise ``FactLie`` (one sentence: which handle, what it hides, the rule) when facts ``side`` opens now
    cannot be its facts under ``public``; ``revealed``: every fact of the side opened so far, these too."""
    if "game" not in public:
        return
    keys = public["game"]["blocks"]
    opened_blocks = {h: block_of(v)[0] for h, v in sorted(opened.items()) if h in keys and h.startswith(PREFIX)}
    _one_key(public, opened_blocks, revealed)
    _room_for_steps(public, opened)
    builds = public.get("builds", {}).get(side)
    if builds is not None:
        _builds(side, builds, opened, revealed)


def _one_key(public: Mapping[str, Any], opened: Mapping[str, str], revealed: Mapping[str, Any]) -> None:
    """Each block under one key of the public state (8.0, 7.6): a key is its block's name when it stands openly,
    else a handle whose block a battle showed (``seen``) or its side opened."""
    seen = public["seen"]
    keys = public["game"]["blocks"]
    for handle, name in opened.items():
        for key, b in sorted(keys.items()):
            if key == handle:
                continue
            other = key if not key.startswith(PREFIX) else seen.get(key) or (
                block_of(revealed[key])[0] if key in revealed else None)
            if other != name:
                continue
            if b["location"] == DEAD:
                raise FactLie(f"{handle} hides {name}, who is dead (5.8, 7.6)")
            if not key.startswith(PREFIX):
                raise FactLie(f"{handle} hides {name}, whose block stands openly ({b['location']}) (8.0, 7.6)")
            raise FactLie(f"it hides {name} behind two handles, {key} and {handle} (8.0, 7.6)")


def _room_for_steps(public: Mapping[str, Any], opened: Mapping[str, Any]) -> None:
    """A handle an Event (Victuals, a Pillage's steps) gave more steps than it had lost (its ``damage`` below zero:
    only a block whose strength the builds sealed, 7.6) had room for them (2.11): its sealed strength plus what it
    gained is no more than its maximum."""
    for handle, value in sorted(opened.items()):
        gained = -int(public.get("damage", {}).get(handle, 0))
        if gained <= 0:
            continue
        name, strength = block_of(value)
        most = spec(name).steps
        if (strength or most) + gained > most:
            raise FactLie(f"{handle} hides {name} at strength {strength or most}, to which its Events gave {gained} "
                          f"step(s) more than it had lost, beyond its {most} (2.11)")


def _builds(side: str, builds: Mapping[str, Any], opened: Mapping[str, Any], revealed: Mapping[str, Any]) -> None:
    """The handles the last builds sealed, opened so far, against what those builds made public (7.6, 9.0, 3.12)."""
    year, handles = int(builds["year"]), builds["handles"]
    before, rps = builds["before"], builds["rps"]
    for label, handle in sorted(opened.items()):
        noble, at = index_of(label) or ("", None)
        if at == year + 1 and handle not in handles:
            raise FactLie(f"its noble index puts {noble} behind {handle!r}, which its builds of {year} did not "
                          "seal (3.12, 7.6)")
    mine = {h: block_of(revealed[h]) for h in sorted(handles) if h in revealed}
    if not any(h in opened for h in mine):
        return
    built: dict[str, int] = {}
    for handle, (name, strength) in mine.items():
        area = handles[handle]
        if spec(name).is_noble and name != MORAY and area not in spec(name).homes:
            raise FactLie(f"{handle}, sealed in {area} at the winter of {year}, hides {name}, whose home "
                          f"{'is' if len(spec(name).homes) == 1 else 'is one of'} {', '.join(spec(name).homes)}: "
                          "every noble but Moray winters at home (7.1)")
        if name not in before:
            continue
        was, old = before[name]
        if was != area:
            raise FactLie(f"{handle}, sealed in {area} at the winter of {year}, hides {name}, who stood in {was} "
                          "(7.6)")
        if strength < old or (strength > old and side == "england" and spec(name).type not in ENGLISH_BUILDABLE):
            raise FactLie(f"{handle} hides {name} at strength {strength}, which the builds at the winter of {year} "
                          f"cannot give a block that had {old} (7.6, 7.63)")
        built[area] = built.get(area, 0) + strength - old
        if built[area] > int(rps.get(area, 0)):
            raise FactLie(f"its blocks sealed in {area} at the winter of {year} gained {built[area]} steps, where its "
                          f"RPs there allowed {rps.get(area, 0)} (7.6)")
    nobles = sum(1 for name, _ in mine.values() if spec(name).is_noble)
    if nobles > int(builds["nobles"]) or len(mine) - nobles > len(handles) - int(builds["nobles"]):
        raise FactLie(f"its builds of {year} counted {builds['nobles']} nobles among {len(handles)} blocks, which its "
                      f"handles opened since belie (9.0, 7.6)")
