"""Meteor actions (MET-D3) and their stable text notation.

``str(action)`` is the notation and ``parse_action(text)`` reads it back exactly. Words are
separated by one space; anything else raises ``NotationError``.

=============================================  ==================================================
notation                                       meaning
=============================================  ==================================================
``start``                                      host: start play, the Zone 5 timer runs (MET-2.9)
``meteor_mulligan``                            host, before ``start``, once: redeal the field (R15)
``place_card R10#2 s1``                        place a card from hand on seat 1's site (MET-8.3)
``place_card F#3 s0.1``                        ... on the second slot of seat 0 (Twin Pads)
``place_card @2 s0``                           Backwards: the card at hand position 2 (0-based)
``discard_project s0``                         controller discards an unfinished project (R3)
``launch s0 m3``                               controller launches the built rocket at meteor m3
``launch s0 m3 demolition sharpshooter``       ... flagged with Demolition Expert / Sharpshooter
``complete_retrofit s0``                       3-card retrofit with the Recycling Plant (T04)
``use_power spotter m3``                       Spotter: reveal face-down meteor m3
``use_power chronometrist``                    Chronometrist: flip the active timer
``use_power mechanic s0 F#3``                  Mechanic: take F#3 back from your own site
``use_power courier F#3 p2``                   Courier: give F#3 (or ``@i``) to seat 2
``show_hand``                                  show your hand to everyone (Open Book, first game)
``pass``                                       set your Pass flag (MET-5.1, R12)
``signal pass`` / ``launch`` / ``time_out``    say one of the three allowed words (MET-7.1)
``emote cheer``                                a non-verbal emote (MET-D1); ``emote point m3``,
                                               ``emote point s2`` points at a meteor or a site
``chat <text>``                                free talk, once allowed (MET-7.2); one line
``time_out`` / ``resume``                      freeze / resume every deadline (R13)
=============================================  ==================================================

Meteors are named by their field handle ``m<n>`` (given when they enter the field), never by
their card id, so a face-down meteor's identity never leaks through notation.

>>> a = parse_action("launch s0 m3 demolition")
>>> a
Launch(site=Site(seat=0, slot=0), target='m3', demolition=True, sharpshooter=False)
>>> str(a)
'launch s0 m3 demolition'
>>> str(parse_action("place_card R10#2 s1.1"))
'place_card R10#2 s1.1'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cosmodeck.engine.errors import NotationError

SIGNALS = ("pass", "launch", "time_out")
EMOTES = ("cheer", "groan", "gasp", "hurry", "thumbs_up", "thumbs_down", "point")
POWER_VERBS = ("spotter", "chronometrist", "mechanic", "courier")
CHAT_MAX = 200
_NUM = r"(0|[1-9][0-9]*)"
_CARD_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*#[1-9][0-9]*$")
_POS_RE = re.compile(rf"^@{_NUM}$")
_SITE_RE = re.compile(rf"^s{_NUM}(\.1)?$")
_METEOR_RE = re.compile(r"^m[1-9][0-9]*$")
_SEAT_RE = re.compile(rf"^p{_NUM}$")


@dataclass(frozen=True, slots=True)
class Site:
    """A launch site: its controller's seat and slot (slot 1 exists only with Twin Pads)."""

    seat: int
    slot: int = 0

    def __str__(self) -> str:
        return f"s{self.seat}" if self.slot == 0 else f"s{self.seat}.{self.slot}"


@dataclass(frozen=True, slots=True)
class Start:
    def __str__(self) -> str:
        return "start"


@dataclass(frozen=True, slots=True)
class MeteorMulligan:
    def __str__(self) -> str:
        return "meteor_mulligan"


@dataclass(frozen=True, slots=True)
class PlaceCard:
    card: str  # instance id, or "@i" (hand position, Backwards)
    site: Site

    def __str__(self) -> str:
        return f"place_card {self.card} {self.site}"


@dataclass(frozen=True, slots=True)
class DiscardProject:
    site: Site

    def __str__(self) -> str:
        return f"discard_project {self.site}"


@dataclass(frozen=True, slots=True)
class Launch:
    site: Site
    target: str
    demolition: bool = False
    sharpshooter: bool = False

    def __str__(self) -> str:
        flags = (" demolition" if self.demolition else "") + (" sharpshooter" if self.sharpshooter else "")
        return f"launch {self.site} {self.target}{flags}"


@dataclass(frozen=True, slots=True)
class CompleteRetrofit:
    site: Site

    def __str__(self) -> str:
        return f"complete_retrofit {self.site}"


@dataclass(frozen=True, slots=True)
class Spot:
    target: str

    def __str__(self) -> str:
        return f"use_power spotter {self.target}"


@dataclass(frozen=True, slots=True)
class Flip:
    def __str__(self) -> str:
        return "use_power chronometrist"


@dataclass(frozen=True, slots=True)
class Mechanic:
    site: Site
    card: str

    def __str__(self) -> str:
        return f"use_power mechanic {self.site} {self.card}"


@dataclass(frozen=True, slots=True)
class Give:
    card: str
    to: int

    def __str__(self) -> str:
        return f"use_power courier {self.card} p{self.to}"


@dataclass(frozen=True, slots=True)
class ShowHand:
    def __str__(self) -> str:
        return "show_hand"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Signal:
    kind: str

    def __str__(self) -> str:
        return f"signal {self.kind}"


@dataclass(frozen=True, slots=True)
class Emote:
    kind: str
    target: str | None = None  # for "point": a meteor handle or a site

    def __str__(self) -> str:
        return f"emote {self.kind}" if self.target is None else f"emote {self.kind} {self.target}"


@dataclass(frozen=True, slots=True)
class Chat:
    text: str

    def __str__(self) -> str:
        return f"chat {self.text}"


@dataclass(frozen=True, slots=True)
class TimeOut:
    def __str__(self) -> str:
        return "time_out"


@dataclass(frozen=True, slots=True)
class Resume:
    def __str__(self) -> str:
        return "resume"


MeteorAction = (Start | MeteorMulligan | PlaceCard | DiscardProject | Launch | CompleteRetrofit | Spot | Flip
                | Mechanic | Give | ShowHand | Pass | Signal | Emote | Chat | TimeOut | Resume)
GAME_ACTIONS = (PlaceCard, DiscardProject, Launch, CompleteRetrofit, Spot, Flip, Mechanic, Give, ShowHand, Pass)
TALK_ACTIONS = (Signal, Emote, Chat)
_BARE: dict[str, MeteorAction] = {
    "start": Start(), "meteor_mulligan": MeteorMulligan(), "show_hand": ShowHand(), "pass": Pass(),
    "time_out": TimeOut(), "resume": Resume(), "use_power chronometrist": Flip(),
}


def _bad(text: str, why: str) -> NotationError:
    return NotationError(f"{text!r} is not a Meteor action: {why}")


def parse_site(tok: str, text: str) -> Site:
    if not _SITE_RE.match(tok):
        raise _bad(text, f"{tok!r} is not a site (s0, s1, ... or s0.1 for a Twin Pads slot)")
    seat, _, slot = tok[1:].partition(".")
    return Site(int(seat), 1 if slot else 0)


def _meteor(tok: str, text: str) -> str:
    if not _METEOR_RE.match(tok):
        raise _bad(text, f"{tok!r} is not a meteor handle (m1, m2, ...)")
    return tok


def _card(tok: str, text: str, positions: bool = True) -> str:
    if _CARD_RE.match(tok) or (positions and _POS_RE.match(tok)):
        return tok
    raise _bad(text, f"{tok!r} is not a card (an id like R10#2{', or @i' if positions else ''})")


def _check_chat(text: str, body: str) -> str:
    if not body or body != body.strip() or len(body) > CHAT_MAX:
        raise _bad(text, f"chat text must be 1-{CHAT_MAX} characters without surrounding spaces")
    if any(not ch.isprintable() for ch in body):
        raise _bad(text, "chat text must be one printable line")
    return body


def parse_action(text: str) -> MeteorAction:
    """Parse the notation (see the module docstring); ``NotationError`` if malformed."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, not {type(text).__name__}")
    if text.startswith("chat "):
        return Chat(_check_chat(text, text[5:]))
    if text in _BARE:
        return _BARE[text]
    words = text.split(" ")
    if not text or any(not w for w in words) or any(not w.isprintable() for w in words):
        raise _bad(text, "words must be separated by single spaces")
    verb, args = words[0], words[1:]
    n = len(args)
    if verb == "place_card" and n == 2:
        return PlaceCard(_card(args[0], text), parse_site(args[1], text))
    if verb == "discard_project" and n == 1:
        return DiscardProject(parse_site(args[0], text))
    if verb == "complete_retrofit" and n == 1:
        return CompleteRetrofit(parse_site(args[0], text))
    if verb == "launch" and 2 <= n <= 4:
        flags = args[2:]
        if flags not in ([], ["demolition"], ["sharpshooter"], ["demolition", "sharpshooter"]):
            raise _bad(text, "launch flags are 'demolition' then 'sharpshooter'")
        return Launch(parse_site(args[0], text), _meteor(args[1], text), "demolition" in flags,
                      "sharpshooter" in flags)
    if verb == "signal" and n == 1 and args[0] in SIGNALS:
        return Signal(args[0])
    if verb == "emote" and n == 1 and args[0] in EMOTES and args[0] != "point":
        return Emote(args[0])
    if verb == "emote" and n == 2 and args[0] == "point":
        tgt = args[1]
        if not (_METEOR_RE.match(tgt) or _SITE_RE.match(tgt)):
            raise _bad(text, "point at a meteor (m3) or a site (s1)")
        return Emote("point", tgt)
    if verb == "use_power" and n >= 1:
        return _parse_power(text, args)
    raise _bad(text, "unknown action or wrong arguments")


def _parse_power(text: str, args: list[str]) -> MeteorAction:
    kind, rest = args[0], args[1:]
    if kind == "spotter" and len(rest) == 1:
        return Spot(_meteor(rest[0], text))
    if kind == "mechanic" and len(rest) == 2:
        return Mechanic(parse_site(rest[0], text), _card(rest[1], text, positions=False))
    if kind == "courier" and len(rest) == 2:
        if not _SEAT_RE.match(rest[1]):
            raise _bad(text, f"{rest[1]!r} is not a seat (p0, p1, ...)")
        return Give(_card(rest[0], text), int(rest[1][1:]))
    raise _bad(text, f"use_power takes one of {', '.join(POWER_VERBS)} with its arguments")
