# cython: language_level=3
"""``games/meteor/view.py:_public_py`` compiled: the same code (the readable function is the reference;
``tests/meteor/test_view_fast.py`` compares both, as JSON with the keys in order, on every step of seeded
games), and ``view_bot.py:_bot_part_py`` compiled as ``bot_part`` (``tests/meteor/test_view_bot.py``), both
with the same compiled sites and field loops. Imported by ``view.py`` once its own functions exist (it reads the
helpers from there)."""

from cosmodeck.games.meteor import view as _view
from cosmodeck.games.meteor.actions import Site
from cosmodeck.games.meteor.rules_meteors import public as _meteor_public
from cosmodeck.games.meteor.rules_powers import talk_rules
from cosmodeck.games.meteor.rules_sites import classify

cdef object _project = _view._project
cdef object _site_facts = _view._site_facts
cdef object _power = _view._power
cdef object _special = _view._special
cdef object _launch = _view._launch
cdef object _site_str = _view._site_str


cdef list _sites(st, dict entries):
    """``view._site_list``, compiled."""
    data = st.data
    cdef list sites = []
    cdef Py_ssize_t seat, slot
    countdowns = st.countdowns
    powers = st.powers
    keys = data.powers
    for seat, slots in enumerate(st.sites):
        # a site's entry depends on these only (its project reads the controller's cost Powers);
        # ``st.has_power(seat, k)`` for k = fuel_chemist, solar_engineer, read once per seat
        pid = powers[seat]
        key = None if pid is None else keys[pid]
        fuel, solar = key == "fuel_chemist", key == "solar_engineer"
        for slot, cards in enumerate(slots):
            due = [cd["due"] for cd in countdowns if cd["site"] == [seat, slot]] if countdowns else None
            built = st.built[seat][slot]
            key = (seat, slot, tuple(cards), built, due[0] if due else None, fuel, solar)
            entry = entries.get(key)
            if entry is None:
                site = Site(seat, slot)
                facts = _site_facts(st, site, cards, built, fuel, solar, entries)
                entry = entries[key] = {"site": str(site), "seat": seat, "slot": slot, "name": data.sites[seat],
                                        "cards": list(cards), "status": facts["status"], "built": built,
                                        "countdown": due[0] if due else None, "project": facts["project"],
                                        "damage": facts["damage"], "cost": facts["cost"],
                                        "missing": facts["missing"]}
            sites.append(entry)
    return sites


cdef list _fields(st, dict entries):
    """``view._field_list``, compiled."""
    cdef list field = []
    for fm in st.field:  # an entry depends on these only (its face on the zone, once face up)
        mkey = ("meteor", fm.ref, fm.id, fm.up, fm.hit, fm.shield_spent, fm.store, tuple(fm.tucked),
                st.zone if fm.up else None)
        entry = entries.get(mkey)
        if entry is None:
            entry = entries[mkey] = _meteor_public(st, fm)
        field.append(entry)
    return field


cdef object _window(st):
    """The volley window's entry (``view._window``), or ``None``."""
    w = st.window
    if w is None:
        return None
    return {"opened": w["opened"], "closes": w["closes"], "launches": [_launch(st, e) for e in w["launches"]]}


def bot_part(st):
    """``view_bot._bot_part_py(st)``, compiled (the same entries, keys and order)."""
    cdef dict entries = st.site_entries
    if len(entries) > _view.LIMIT:
        entries.clear()
    sites = _sites(st, entries)
    field = _fields(st, entries)
    window = _window(st)
    return {
        "phase": st.phase,
        "zone": st.zone,
        "timer": {"deadline": st.timer_end, "remaining": st.remaining(),
                  "length": float(st.game.options["zone_timer_s"]),
                  "running": st.phase == "play" and st.paused is None and st.outcome is None},
        "field": field,
        "sites": sites,
        "passes": list(st.passes),
        "volley": window,
        "hidden_hands": [{"seat": s, "count": len(st.hands[s]), "known": list(st.known[s]), "cards": None}
                         for s in range(st.players)],
    }


def public(st):
    """``view._public_py(st)``, compiled (the same entries, keys and order)."""
    data = st.data
    opts = st.game.options
    res = data.resources
    cdef list sites
    cdef list field
    cdef list removed = []
    cdef dict entries
    entries = st.site_entries
    if len(entries) > _view.LIMIT:
        entries.clear()
    sites = _sites(st, entries)
    field = _fields(st, entries)
    # the talk rules depend on the techs, Powers and Challenges only (and the game's options)
    talk_key = ("talk", tuple(st.techs), tuple(st.powers), tuple(st.challenges))
    talk = entries.get(talk_key)
    if talk is None:
        talk = entries[talk_key] = {"by_seat": [talk_rules(st, s) for s in range(st.players)]}
    options = entries.get(("options",))
    if options is None:
        options = entries[("options",)] = {
            "volley_window_s": opts["volley_window_s"], "zone_timer_s": opts["zone_timer_s"],
            "countdown_s": opts["countdown_s"], "one_handed_interval_s": opts["one_handed_interval_s"],
            "allow_any_timeout": opts["allow_any_timeout"], "allow_meteor_mulligan": opts["allow_meteor_mulligan"]}
    # the Powers, Challenges and technologies depend on these only
    skey = ("specials", tuple(st.powers), tuple(st.challenges), tuple(map(tuple, st.used)),
            tuple(map(tuple, st.zone_used)), tuple(st.techs))
    specials = entries.get(skey)
    if specials is None:
        specials = entries[skey] = {
            "powers": [_power(st, p, s) for s, p in enumerate(st.powers)],
            "challenges": [_special(st, c, s, data.challenges) for s, c in enumerate(st.challenges)],
            "techs": [{"id": t, "key": res[t].key, "effect": res[t].effect} for t in st.techs]}
    for r in st.removed:  # {ref, id, cause, zone} (codec and validate): an entry per record
        rkey = ("removed", *r.items())
        entry = entries.get(rkey)
        if entry is None:
            entry = entries[rkey] = {**r, **data.meteors[r["id"]].face(r["zone"])}
        removed.append(entry)
    window = _window(st)
    return {
        "phase": st.phase,
        "difficulty": opts["difficulty"],
        "first_game": opts["first_game"],
        "zone": st.zone,
        "zone_name": data.zones[st.zone],
        "zones_left": list(range(st.zone, 0, -1)),
        "timer": {"deadline": st.timer_end, "remaining": st.remaining(), "length": float(opts["zone_timer_s"]),
                  "running": st.phase == "play" and st.paused is None and st.outcome is None},
        "time_out": None if st.paused is None else dict(st.paused),
        "field": field,
        "removed": removed,
        "meteor_deck": len(st.meteor_deck),
        "resource_deck": len(st.deck),
        "discard": list(st.discard),
        "sites": sites,
        "techs": specials["techs"],
        "passes": list(st.passes),
        "volley": window,
        "countdowns": [dict(cd, site=_site_str(cd["site"])) for cd in st.countdowns],
        "powers": specials["powers"],
        "challenges": specials["challenges"],
        "last_place": list(st.last_place),
        "mulligan_used": st.mulligan_used,
        "talk_by_seat": talk["by_seat"],
        "options": options,
        "outcome": None if st.outcome is None else dict(st.outcome),
        "hidden_hands": [{"seat": s, "count": len(st.hands[s]), "known": list(st.known[s]), "cards": None}
                         for s in range(st.players)],
    }
