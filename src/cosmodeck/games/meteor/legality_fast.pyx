# cython: language_level=3
"""``games/meteor/legality.py:legal_py`` compiled with its play-phase helpers (``_legal_places``, ``_all_places``,
``_legal_play``, ``_points``, ``_hand_tokens``, and ``why``'s chat check, ``may_show`` and the Stubborn check with
each seat's Challenge and this seat's Power read once): the same conditions, the same interned action objects (it uses ``legality``'s intern tables), so
the same lists. The readable functions stay the reference and run when the extension is not built;
``tests/meteor/test_legal_fast.py`` proves ``legal == legal_reference`` on every step of seeded games and
``legal == legal_py`` (same objects, same order). Imported by ``legality.py`` once its own functions exist."""

from cosmodeck.games.meteor import legality as _legality
from cosmodeck.games.meteor.actions import CompleteRetrofit, DiscardProject, Give, Mechanic, Spot
from cosmodeck.games.meteor.rules_sites import three_card_retrofit

cdef object why = _legality.why
cdef object legal_reference = _legality.legal_reference
cdef object _interned_site = _legality._interned_site
cdef object _place_action = _legality._place_action
cdef object _own_action = _legality._own_action
cdef object _launch_action = _legality._launch_action
cdef dict _PLACE_LISTS = _legality._PLACE_LISTS
cdef dict _SITES = _legality._SITES
cdef dict _LAUNCHES = _legality._LAUNCHES
cdef list _ALWAYS = _legality._ALWAYS
cdef object _CHAT = _legality._CHAT
cdef object _FLIP = _legality._FLIP
cdef object _SHOW = _legality._SHOW
cdef object _PASS = _legality._PASS
cdef object _TIMEOUT = _legality._TIMEOUT
cdef dict _PLACES = _legality._PLACES
cdef tuple _BOTH = (False, True)


cdef inline object _site(long seat, long slot):
    """``legality._interned_site``: its table and key."""
    got = _SITES.get((seat, slot))
    return _interned_site(seat, slot) if got is None else got


cdef inline object _place(object card, object site, long seat, long slot):
    """``legality._place_action(card, site)`` (``site`` is ``Site(seat, slot)``): its table and key."""
    got = _PLACES.get((card, seat, slot))
    return _place_action(card, site) if got is None else got
cdef tuple _NO = (False,)


cdef list _legal_places(object st, long seat, list hand, bint backwards, list keys):
    """``[PlaceCard(c, s) for c in hand for s in sites if why(...) is None]``, decided per site and card.

    ``_place``'s conditions: a hand token always names a card in hand (ids from the hand, or positions
    ``@i`` under Backwards) and every listed site exists; then per seat: One-Handed; per site: built,
    first card by its controller, Closed Site, Homebody; per card and site: a forbidding Challenge
    (not for positions).
    """
    mine = keys[seat]
    last = st.last_place[seat]
    if mine == "one_handed" and last is not None and \
            st.now - last < float(st.game.options["one_handed_interval_s"]):
        return []
    homebody = mine == "homebody"
    cdef list places = []
    cdef Py_ssize_t s, k
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
    open_sites = [_site(s, k) for s, k in places]
    res = st.data.resources
    out = []
    cdef Py_ssize_t i
    for c in hand:
        card = res[c]
        heavy = card.is_rocket and card.damage >= 4
        electric = card.is_energy and card.key == "electric"
        for i, site in enumerate(open_sites):
            if (heavy and light[i]) or (electric and fault[i]):
                continue
            s, k = places[i]
            out.append(_place(c, site, s, k))
    return out


cdef list _all_places(list hand, list places):
    """``[PlaceCard(c, Site(s, k)) for c in hand for s, k in places]`` (interned; the list kept per hand and
    sites: a hand and a board often stay the same from one version to the next)."""
    key = (tuple(hand), tuple(places))
    got = _PLACE_LISTS.get(key)
    if got is None:
        if len(_PLACE_LISTS) >= 20_000:
            _PLACE_LISTS.clear()
        sites = [_site(s, k) for s, k in places]
        got = _PLACE_LISTS[key] = [_place(c, sites[i], places[i][0], places[i][1]) for c in hand
                                   for i in range(len(places))]
    return list(got)


cdef list _legal_play(object st, long seat, list hand, object power, object mine, bint first_game):
    """``[a for a in _play_candidates(st, seat, hand) if why(st, seat, a) is None]`` in play (no Time Out),
    deciding each kind by ``why``'s conditions (``_own_site``, ``_power``, ``_timeout``, Pass, ShowHand),
    except the rare Mechanic and Courier candidates, which ask ``why``."""
    cdef list out = []
    cdef list refs = [fm.ref for fm in st.field]
    cdef Py_ssize_t slot
    used = st.used[seat]
    zone_used = st.zone_used[seat]
    demo_ok = power == "demolition_expert"
    sharp_ok = power == "sharpshooter"
    flags = [(False, False)]
    if sharp_ok:
        flags.append((False, True))
    if demo_ok:
        sharps = _BOTH if sharp_ok else _NO
        flags = [(d, h) for d in _BOTH for h in sharps]
    # a flagged launch is refused once its Power is used (demolition is checked first, as _own_site does)
    flags = [(d, h) for d, h in flags if not (d and "demolition_expert" in used)
             and not (h and "sharpshooter" in used)]
    recycling = bool(st.techs) and st.has_tech("retrofit_with_3_on_demand")
    mechanic = power == "mechanic"
    pending = [cd["site"] for cd in st.countdowns]
    for slot in range(len(st.sites[seat])):
        site = _SITES.get((seat, slot))
        if site is None:
            site = _interned_site(seat, slot)
        built = st.built[seat][slot]
        if not built and st.sites[seat][slot]:
            out.append(_own_action(DiscardProject, site))
        if recycling and three_card_retrofit(st, site):
            out.append(_own_action(CompleteRetrofit, site))
        if built and [seat, slot] not in pending:
            for r in refs:
                for d, h in flags:
                    got = _LAUNCHES.get((seat, slot, r, d, h))  # _launch_action's table and key
                    out.append(_launch_action(site, r, d, h) if got is None else got)
        if mechanic:
            out += [a for a in (Mechanic(site, c) for c in st.sites[seat][slot]) if why(st, seat, a) is None]
    if power == "spotter" and "spotter" not in used and "spotter" not in zone_used:
        out += [Spot(fm.ref) for fm in st.field if not fm.up]
    if power == "chronometrist" and "chronometrist" not in used and "chronometrist" not in zone_used:
        out.append(_FLIP)
    if power == "courier":
        out += [a for a in (Give(c, p) for c in hand for p in range(st.players)) if why(st, seat, a) is None]
    if (first_game or power == "open_book") and not all(c in st.known[seat] for c in st.hands[seat]):
        out.append(_SHOW)  # may_show
    if mine != "stubborn" and not st.passes[seat]:
        out.append(_PASS)
    if seat == 0 or st.game.options["allow_any_timeout"]:
        out.append(_TIMEOUT)
    return out


cdef dict _POINT_LISTS = _legality._POINT_LISTS
cdef object _point = _legality._point


cdef list _points(object st):
    """``legality._points`` (the same table, key and lists)."""
    key = (tuple([fm.ref for fm in st.field]), tuple([len(slots) for slots in st.sites]))
    got = _POINT_LISTS.get(key)
    if got is None:
        if len(_POINT_LISTS) >= 20_000:
            _POINT_LISTS.clear()
        got = _POINT_LISTS[key] = [_point(ref) for ref in key[0]] + [
            _point(f"s{s}" if k == 0 else f"s{s}.{k}") for s, n in enumerate(key[1]) for k in range(n)]
    return got


def legal(st, seat):
    """``legality.legal_py``, compiled (the same list: the same interned objects in the same order). Each
    seat's Challenge, this seat's Power and the first-game option are read once (``has_challenge``,
    ``has_power``, ``may_show``, ``may_chat`` and ``why``'s chat check read them per question)."""
    if st.phase != "play" or st.paused is not None:
        return legal_reference(st, seat)
    data = st.data
    table = data.challenges
    cdef list keys = [None if c is None else table[c] for c in st.challenges]  # each seat's Challenge
    mine = keys[seat]
    pid = st.powers[seat]
    power = None if pid is None else data.powers[pid]  # st.has_power(seat, key) is ``power == key``
    cdef bint first_game = bool(st.game.options["first_game"])
    cdef list hand
    cdef bint backwards = mine == "backwards"
    if backwards:  # _hand_tokens
        hand = [f"@{i}" for i in range(len(st.hands[seat]))]
    else:
        hand = list(st.hands[seat])
    cdef list out = _legal_places(st, seat, hand, backwards, keys)
    out += _legal_play(st, seat, hand, power, mine, first_game)
    out += _ALWAYS
    out += _points(st)
    # why(st, seat, _CHAT) is None: _talk's Radio Silence, then may_chat
    if mine != "radio_silence" and (first_game or (bool(st.techs) and st.has_tech("allow_talk"))
                                    or power == "radio_operator"):
        out.append(_CHAT)
    return out


def listed(list actions, object action):
    """``legality.listed_py``: whether ``action`` is one of the very objects of ``actions``."""
    cdef object a
    for a in actions:
        if a is action:
            return True
    return False
