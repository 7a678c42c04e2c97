"""One source of truth for legality: ``why`` gives the refusal (code, reason) of an action or
``None``; ``legal`` filters a finite candidate list through ``why`` (``legal_reference``, literally).

``legal`` decides the card placements (most of the candidates) per site and per card instead of
calling ``why`` for each (card, site) pair; the placement conditions it reads are those of
``_place``, and tests/meteor/test_legal_fast.py proves ``legal == legal_reference`` on many states.

Refusal codes are stable (docs/clauses/meteor.md lists them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cosmodeck.games.meteor.actions import (
    EMOTES,
    GAME_ACTIONS,
    SIGNALS,
    Chat,
    CompleteRetrofit,
    DiscardProject,
    Emote,
    Flip,
    Give,
    Launch,
    Mechanic,
    MeteorMulligan,
    Pass,
    PlaceCard,
    ShowHand,
    Signal,
    Site,
    Spot,
    Start,
    TimeOut,
)
from cosmodeck.games.meteor.actions import Resume as ResumeAction
from cosmodeck.games.meteor.rules_powers import may_chat, may_show
from cosmodeck.games.meteor.rules_sites import challenge_forbids, three_card_retrofit

if TYPE_CHECKING:
    from cosmodeck.games.meteor.state import MeteorState

Why = tuple[str, str] | None
CHAT_SAMPLE = "hello"  # the one chat line listed among legal actions (any one-line text is accepted)


def why(st: MeteorState, seat: int, a: Any) -> Why:
    """The refusal of ``a`` by ``seat`` now, or ``None`` if it is legal."""
    if isinstance(a, (Signal, Emote, Chat)):
        return _talk(st, seat, a)
    if isinstance(a, (Start, MeteorMulligan)):
        if st.phase != "setup":
            return "already_started", "play has already started"
        if seat != 0:
            return "host_only", "only the host (seat 0) sets up the game"
        if isinstance(a, MeteorMulligan):
            if not st.game.options["allow_meteor_mulligan"]:
                return "mulligan_disabled", "the Meteor Mulligan is switched off (allow_meteor_mulligan)"
            if st.mulligan_used:
                return "mulligan_used", "the Meteor Mulligan may be taken once only"
        return None
    if isinstance(a, (TimeOut, ResumeAction)):
        return _timeout(st, seat, a)
    if not isinstance(a, GAME_ACTIONS):
        return "bad_action", f"{a} is not a Meteor action"
    if st.phase != "play":
        return "not_started", "play has not started: the host must `start`"
    if st.paused is not None:
        return "timed_out", "a Time Out blocks every game action (R13)"
    if isinstance(a, PlaceCard):
        return _place(st, seat, a)
    if isinstance(a, (DiscardProject, Launch, CompleteRetrofit)):
        return _own_site(st, seat, a)
    if isinstance(a, (Spot, Flip, Mechanic, Give)):
        return _power(st, seat, a)
    if isinstance(a, ShowHand):
        if not may_show(st, seat):
            return "no_showing", "hands may not be shown (MET-7.2) without Open Book or a first game"
        if all(c in st.known[seat] for c in st.hands[seat]):
            return "nothing_to_show", "every card in your hand is already shown"
        return None
    assert isinstance(a, Pass)
    if st.has_challenge(seat, "stubborn"):
        return "stubborn", "Stubborn: you may never Pass"
    if st.passes[seat]:
        return "already_passed", "your Pass flag is already set"
    return None


def _timeout(st: MeteorState, seat: int, a: Any) -> Why:
    if st.phase != "play":
        return "not_started", "there is no timer to stop before play starts"
    if isinstance(a, TimeOut):
        if st.paused is not None:
            return "already_timed_out", "the game is already in a Time Out"
        if seat != 0 and not st.game.options["allow_any_timeout"]:
            return "host_only", "only the host calls a Time Out; use `signal time_out` to ask (R13)"
        return None
    if st.paused is None:
        return "not_timed_out", "there is no Time Out to resume"
    if seat not in (0, st.paused["by"]):
        return "not_your_time_out", "only the caller or the host may resume (R13)"
    return None


def _talk(st: MeteorState, seat: int, a: Signal | Emote | Chat) -> Why:
    if isinstance(a, Signal):
        return None if a.kind in SIGNALS else ("bad_signal", f"no signal {a.kind!r}")
    if isinstance(a, Emote):
        if a.kind not in EMOTES or (a.kind == "point") != (a.target is not None):
            return "bad_emote", f"no emote {a}"
        if a.target is not None and not _target_exists(st, a.target):
            return "no_such_target", f"nothing to point at called {a.target}"
        return None
    if st.has_challenge(seat, "radio_silence"):
        return "radio_silence", "Radio Silence: you may never chat; signals and emotes only"
    if not may_chat(st, seat):
        return "no_talking", "no talking before the Communications Satellite (MET-7.1): signals and emotes only"
    return None


def _target_exists(st: MeteorState, target: str) -> bool:
    if target.startswith("m"):
        return st.meteor(target) is not None
    return any(str(s) == target for s in st.all_sites())


def _hand_card(st: MeteorState, seat: int, token: str) -> tuple[str | None, Why]:
    backwards = st.has_challenge(seat, "backwards")
    if token.startswith("@"):
        if not backwards:
            return None, ("not_backwards", "name the card by its id; hand positions are for Backwards")
        i = int(token[1:])
        if i >= len(st.hands[seat]):
            return None, ("bad_position", f"your hand has {len(st.hands[seat])} cards")
        return st.hands[seat][i], None
    if backwards:
        return None, ("backwards", "Backwards: you play your cards by hand position (@0, @1, ...)")
    if token not in st.hands[seat]:
        return None, ("not_in_hand", f"{token} is not in your hand")
    return token, None


def _place(st: MeteorState, seat: int, a: PlaceCard) -> Why:
    card_id, bad = _hand_card(st, seat, a.card)
    if bad is not None:
        return bad
    assert card_id is not None
    site = a.site
    if not st.site_exists(site):
        return "no_such_site", f"there is no site {site}"
    if st.built[site.seat][site.slot]:
        return "site_locked", "a site holding a built rocket accepts no cards until it is launched (R5)"
    if not st.sites[site.seat][site.slot] and seat != site.seat:
        return "first_card", "the site's controller must place the first card of a project (MET-8.4, R4)"
    if seat != site.seat and st.has_challenge(site.seat, "closed_site"):
        return "closed_site", "Closed Site: only its controller may place cards there"
    if seat != site.seat and st.has_challenge(seat, "homebody"):
        return "homebody", "Homebody: you may not place cards on other players' sites"
    forbidden = challenge_forbids(st, card_id, site)
    if forbidden is not None and not a.card.startswith("@"):
        return forbidden
    # R21: a Backwards player cannot see the face, so a placement by position is legal whatever the card is;
    # a card a Challenge forbids there is then revealed and discarded (rules_sites.place)
    last = st.last_place[seat]
    gap = float(st.game.options["one_handed_interval_s"])
    if st.has_challenge(seat, "one_handed") and last is not None and st.now - last < gap:
        return "one_handed", "One-Handed: wait before placing another card"
    return None


def _own_site(st: MeteorState, seat: int, a: DiscardProject | Launch | CompleteRetrofit) -> Why:
    site = a.site
    if isinstance(a, CompleteRetrofit) and not st.has_tech("retrofit_with_3_on_demand"):
        return "no_tech", "a 3-card retrofit needs the Recycling Plant"
    if not st.site_exists(site):
        return "no_such_site", f"there is no site {site}"
    if site.seat != seat:
        return "not_controller", "only the site's controller may do that (R3, MET-11.1)"
    built = st.built[site.seat][site.slot]
    if isinstance(a, DiscardProject):
        if built:
            return "rocket_built", "a built rocket can only be launched, never discarded (R3)"
        if not st.sites[site.seat][site.slot]:
            return "site_empty", "there is no project to discard"
        return None
    if isinstance(a, CompleteRetrofit):
        if not three_card_retrofit(st, site):
            return "no_retrofit", "the site does not hold exactly 3 energy or 3 rockets in a valid pattern"
        return None
    if not built:
        return "no_rocket", "there is no built rocket on that site (MET-9.3.1)"
    if any(cd["site"] == [site.seat, site.slot] for cd in st.countdowns):
        return "launch_pending", "Countdown: this rocket's launch is already called"
    if st.meteor(a.target) is None:
        return "no_such_meteor", f"there is no meteor {a.target} in the field"
    for flag, power in ((a.demolition, "demolition_expert"), (a.sharpshooter, "sharpshooter")):
        if flag:
            if not st.has_power(seat, power):
                return "no_power", f"you do not hold {power}"
            if power in st.used[seat]:
                return "power_used", f"{power} is once per game"
    return None


def _power(st: MeteorState, seat: int, a: Spot | Flip | Mechanic | Give) -> Why:
    power = {Spot: "spotter", Flip: "chronometrist", Mechanic: "mechanic", Give: "courier"}[type(a)]
    if not st.has_power(seat, power):
        return "no_power", f"you do not hold {power}"
    if power in st.used[seat] or power in st.zone_used[seat]:
        limit = "once per zone" if power in ("mechanic", "courier") else "once per game"
        return "power_used", f"{power} is already used ({limit})"
    if isinstance(a, Spot):
        fm = st.meteor(a.target)
        if fm is None:
            return "no_such_meteor", f"there is no meteor {a.target} in the field"
        if fm.up:
            return "not_face_down", f"{a.target} is already face up"
        return None
    if isinstance(a, Mechanic):
        if not st.site_exists(a.site) or a.site.seat != seat:
            return "not_controller", "Mechanic works on your own site only"
        if st.built[a.site.seat][a.site.slot]:
            return "site_locked", "a built rocket is finished (R3, R5)"
        if a.card not in st.sites[a.site.seat][a.site.slot]:
            return "not_on_site", f"{a.card} is not on {a.site}"
        return None
    if isinstance(a, Give):
        if not 0 <= a.to < st.players or a.to == seat:
            return "bad_recipient", f"no other player p{a.to}"
        _, bad = _hand_card(st, seat, a.card)
        return bad
    return None


def candidates(st: MeteorState, seat: int) -> list[Any]:
    """A finite superset of the legal actions of ``seat`` (chat: one sample line)."""
    return _game_candidates(st, seat) + _talk_candidates(st)


def _game_candidates(st: MeteorState, seat: int) -> list[Any]:
    out: list[Any] = []
    if st.phase == "setup":
        out += [MeteorMulligan(), Start()]
    elif st.paused is not None:
        out.append(ResumeAction())
    else:
        hand = _hand_tokens(st, seat)
        out += [PlaceCard(c, s) for c in hand for s in st.all_sites()]
        out += _play_candidates(st, seat, hand)
    return out


def _hand_tokens(st: MeteorState, seat: int) -> list[str]:
    return ([f"@{i}" for i in range(len(st.hands[seat]))] if st.has_challenge(seat, "backwards")
            else list(st.hands[seat]))


def _play_candidates(st: MeteorState, seat: int, hand: list[str]) -> list[Any]:
    """The candidates of a seat in play after its placements."""
    out: list[Any] = []
    refs = [fm.ref for fm in st.field]
    demo = [False, True] if st.has_power(seat, "demolition_expert") else [False]
    sharp = [False, True] if st.has_power(seat, "sharpshooter") else [False]
    for s in st.own_sites(seat):
        out += [DiscardProject(s), CompleteRetrofit(s)]
        if st.built[s.seat][s.slot]:
            out += [Launch(s, r, d, h) for r in refs for d in demo for h in sharp]
        if st.has_power(seat, "mechanic"):
            out += [Mechanic(s, c) for c in st.sites[s.seat][s.slot]]
    out += [Spot(r) for r in refs] + [Flip()]
    if st.has_power(seat, "courier"):
        out += [Give(c, p) for c in hand for p in range(st.players)]
    out += [ShowHand(), Pass(), TimeOut()]
    return out


_ALWAYS: list[Any] = [Signal(k) for k in SIGNALS] + [Emote(k) for k in EMOTES if k != "point"]
_CHAT = Chat(CHAT_SAMPLE)


def _talk_candidates(st: MeteorState) -> list[Any]:
    points = [Emote("point", fm.ref) for fm in st.field]
    points += [Emote("point", f"s{s}" if k == 0 else f"s{s}.{k}") for s in range(st.players)
               for k in range(len(st.sites[s]))]
    return [*_ALWAYS, *points, _CHAT]


def legal_reference(st: MeteorState, seat: int) -> list[Any]:
    """Every candidate ``why`` accepts, in candidate order (the definition ``legal`` is proved against)."""
    out = [a for a in _game_candidates(st, seat) if why(st, seat, a) is None]
    talk = _talk_candidates(st)  # signals and emotes at existing targets are always legal (MET-D1)
    if why(st, seat, talk[-1]) is not None:
        talk.pop()
    return out + talk


def _legal_places(st: MeteorState, seat: int, hand: list[str], backwards: bool) -> list[Any]:
    """``[PlaceCard(c, s) for c in hand for s in sites if why(...) is None]``, decided per site and card.

    ``_place``'s conditions: a hand token always names a card in hand (ids from the hand, or positions
    ``@i`` under Backwards) and every listed site exists; then per seat: One-Handed; per site: built,
    first card by its controller, Closed Site, Homebody; per card and site: a forbidding Challenge
    (not for positions).
    """
    table = st.data.challenges
    keys = [None if c is None else table[c] for c in st.challenges]  # each seat's Challenge (has_challenge)
    mine = keys[seat]
    last = st.last_place[seat]
    if mine == "one_handed" and last is not None and \
            st.now - last < float(st.game.options["one_handed_interval_s"]):
        return []
    homebody = mine == "homebody"
    places: list[tuple[int, int]] = []
    for s, slots in enumerate(st.sites):
        for k, cards in enumerate(slots):
            if st.built[s][k]:
                continue
            if s != seat and (not cards or keys[s] == "closed_site" or homebody):
                continue
            places.append((s, k))
    light = [keys[s] == "light_payloads" for s, _ in places]
    fault = [keys[s] == "power_fault" for s, _ in places]
    if backwards or (not any(light) and not any(fault)):
        return _all_places(hand, places)
    open_sites = [_interned_site(s, k) for s, k in places]
    res = st.data.resources
    out: list[Any] = []
    for c in hand:
        card = res[c]
        heavy = card.is_rocket and card.damage >= 4
        electric = card.is_energy and card.key == "electric"
        for i, site in enumerate(open_sites):
            if (heavy and light[i]) or (electric and fault[i]):
                continue
            out.append(_place_action(c, site))
    return out


# Interned actions of ``legal`` (issue 15): the same objects at every version, so a legal list costs no
# dataclass constructions and the engine's action check (``State._action``) knows them already. Keyed by
# plain values (Site's generated hash is slower); cleared if ever large (many data files in one process).
_SITES: dict[tuple[int, int], Site] = {}
_PLACES: dict[tuple[str, int, int], PlaceCard] = {}
_OWN: dict[tuple[type, int, int], Any] = {}
_LAUNCHES: dict[tuple[int, int, str, bool, bool], Launch] = {}
_POINTS: dict[str, Emote] = {}
_INTERN_MAX = 200_000


def _interned_site(seat: int, slot: int) -> Site:
    got = _SITES.get((seat, slot))
    if got is None:
        got = _SITES[(seat, slot)] = Site(seat, slot)
    return got


def _place_action(card: str, site: Site) -> PlaceCard:
    key = (card, site.seat, site.slot)
    got = _PLACES.get(key)
    if got is None:
        if len(_PLACES) >= _INTERN_MAX:
            _PLACES.clear()
        got = _PLACES[key] = PlaceCard(card, site)
    return got


def _own_action(cls: type, site: Site) -> Any:
    key = (cls, site.seat, site.slot)
    got = _OWN.get(key)
    if got is None:
        got = _OWN[key] = cls(site)
    return got


def _launch_action(site: Site, ref: str, demolition: bool, sharpshooter: bool) -> Launch:
    key = (site.seat, site.slot, ref, demolition, sharpshooter)
    got = _LAUNCHES.get(key)
    if got is None:
        if len(_LAUNCHES) >= _INTERN_MAX:
            _LAUNCHES.clear()
        got = _LAUNCHES[key] = Launch(site, ref, demolition, sharpshooter)
    return got


def _point(target: str) -> Emote:
    got = _POINTS.get(target)
    if got is None:
        if len(_POINTS) >= _INTERN_MAX:
            _POINTS.clear()
        got = _POINTS[target] = Emote("point", target)
    return got


_POINT_LISTS: dict[tuple[tuple[str, ...], tuple[int, ...]], list[Emote]] = {}


def _points(st: MeteorState) -> list[Emote]:
    """``_talk_candidates``' pointing emotes (at each field meteor, then each site), interned, kept per field
    and site layout."""
    key = (tuple([fm.ref for fm in st.field]), tuple([len(slots) for slots in st.sites]))
    got = _POINT_LISTS.get(key)
    if got is None:
        if len(_POINT_LISTS) >= 20_000:
            _POINT_LISTS.clear()
        got = _POINT_LISTS[key] = [_point(ref) for ref in key[0]] + [
            _point(f"s{s}" if k == 0 else f"s{s}.{k}") for s, n in enumerate(key[1]) for k in range(n)]
    return got


_PLACE_LISTS: dict[tuple[tuple[str, ...], tuple[tuple[int, int], ...]], list[PlaceCard]] = {}


def _all_places(hand: list[str], places: list[tuple[int, int]]) -> list[Any]:
    """``[PlaceCard(c, Site(s, k)) for c in hand for s, k in places]`` (interned; the list kept per hand and
    sites: a hand and a board often stay the same from one version to the next)."""
    key = (tuple(hand), tuple(places))
    got = _PLACE_LISTS.get(key)
    if got is None:
        if len(_PLACE_LISTS) >= 20_000:
            _PLACE_LISTS.clear()
        sites = [_interned_site(s, k) for s, k in places]
        got = _PLACE_LISTS[key] = [_place_action(c, site) for c in hand for site in sites]
    return list(got)


def _legal_play(st: MeteorState, seat: int, hand: list[str]) -> list[Any]:
    """``[a for a in _play_candidates(st, seat, hand) if why(st, seat, a) is None]`` in play (no Time Out),
    deciding each kind by ``why``'s conditions (``_own_site``, ``_power``, ``_timeout``, Pass, ShowHand),
    except the rare Mechanic and Courier candidates, which ask ``why``."""
    out: list[Any] = []
    refs = [fm.ref for fm in st.field]
    used = st.used[seat]
    zone_used = st.zone_used[seat]
    pid = st.powers[seat]
    power = None if pid is None else st.data.powers[pid]  # st.has_power(seat, key) is ``power == key``
    demo_ok = power == "demolition_expert"
    sharp_ok = power == "sharpshooter"
    flags = [(False, False)]
    if sharp_ok:
        flags.append((False, True))
    if demo_ok:
        flags = [(d, h) for d in (False, True) for h in ((False, True) if sharp_ok else (False,))]
    # a flagged launch is refused once its Power is used (demolition is checked first, as _own_site does)
    flags = [(d, h) for d, h in flags if not (d and "demolition_expert" in used)
             and not (h and "sharpshooter" in used)]
    recycling = bool(st.techs) and st.has_tech("retrofit_with_3_on_demand")
    mechanic = power == "mechanic"
    pending = [cd["site"] for cd in st.countdowns]
    for slot in range(len(st.sites[seat])):
        site = _interned_site(seat, slot)
        built = st.built[seat][slot]
        if not built and st.sites[seat][slot]:
            out.append(_own_action(DiscardProject, site))
        if recycling and three_card_retrofit(st, site):
            out.append(_own_action(CompleteRetrofit, site))
        if built and [seat, slot] not in pending:
            out += [_launch_action(site, r, d, h) for r in refs for d, h in flags]
        if mechanic:
            out += [a for a in (Mechanic(site, c) for c in st.sites[seat][slot]) if why(st, seat, a) is None]
    if power == "spotter" and "spotter" not in used and "spotter" not in zone_used:
        out += [Spot(fm.ref) for fm in st.field if not fm.up]
    if power == "chronometrist" and "chronometrist" not in used and "chronometrist" not in zone_used:
        out.append(_FLIP)
    if power == "courier":
        out += [a for a in (Give(c, p) for c in hand for p in range(st.players)) if why(st, seat, a) is None]
    if may_show(st, seat) and not all(c in st.known[seat] for c in st.hands[seat]):
        out.append(_SHOW)
    if not st.has_challenge(seat, "stubborn") and not st.passes[seat]:
        out.append(_PASS)
    if seat == 0 or st.game.options["allow_any_timeout"]:
        out.append(_TIMEOUT)
    return out


_FLIP, _SHOW, _PASS, _TIMEOUT = Flip(), ShowHand(), Pass(), TimeOut()


def legal_py(st: MeteorState, seat: int) -> list[Any]:
    """As ``legal_reference`` (same actions, same order, equal actions), with placements decided per site
    and card, the other game actions per kind (``_legal_play``), and interned action objects."""
    if st.phase != "play" or st.paused is not None:
        return legal_reference(st, seat)
    hand = _hand_tokens(st, seat)
    out = _legal_places(st, seat, hand, st.has_challenge(seat, "backwards"))
    out += _legal_play(st, seat, hand)
    out += _ALWAYS
    out += _points(st)
    if why(st, seat, _CHAT) is None:
        out.append(_CHAT)
    return out


def listed_py(actions: list[Any], action: Any) -> bool:
    """Whether ``action`` is one of the very objects of ``actions`` (identity, not equality)."""
    return any(a is action for a in actions)


legal: Callable[[MeteorState, int], list[Any]]
listed: Callable[[list[Any], Any], bool]
try:  # the same functions compiled (games/meteor/legality_fast.pyx), when built
    from cosmodeck.games.meteor.legality_fast import legal, listed
except ImportError:  # not built (a source tree without a C compiler): the readable functions, the same lists
    legal = legal_py
    listed = listed_py
