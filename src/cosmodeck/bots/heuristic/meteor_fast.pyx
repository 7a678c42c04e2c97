# cython: language_level=3
"""``bots/heuristic/meteor.py:MeteorHeuristic._plain_values`` and ``useful`` compiled: the same values.

Every value is computed with the same expressions, on the same doubles, in the same order as the readable
methods (``_project_place_value``, ``_new_project_value``, ``_place_value``, ``_retrofit_start``,
``_retrofit_continue``, ``_launch_value``, ``_value``, ``_usefulness``, ``_site_wanted``, ``_coverage``,
``subset_sum``), so the floats are bit-identical; the readable ones stay the reference
(``tests/bots/test_meteor_fast.py`` compares both on every look of seeded games). The cards are read from a
table of plain fields built once per card set; what the readable bot memoises per view (the sites by place,
the meteors by handle, the usefulness of a damage, the hand's counts) is computed once per call here.
An action of a class the kernel does not know (a subclass of a valued class) is valued by the bot's own
``_value``.
"""

from cosmodeck.games.meteor.actions import (
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
    Resume,
    ShowHand,
    Signal,
    Spot,
    Start,
    TimeOut,
)

cdef double KILL = 10.0
cdef object _ZERO = frozenset({Spot, Flip, Mechanic, Give, ShowHand, Pass, Signal, Emote, Chat, TimeOut, Start,
                               MeteorMulligan, Resume})
cdef tuple VALUED = (Launch, PlaceCard, CompleteRetrofit, DiscardProject)

cdef enum:
    MAX_SUM = 512


cdef class Card:
    """The fields of a ``ResourceCard`` the values read."""
    cdef public bint energy, rocket, tech
    cdef public object code
    cdef public long damage
    cdef public tuple cost


cdef dict _TABLES = {}  # id(resources) -> (resources, {card id: Card}); the mapping is kept alive


cdef dict _table(object resources):
    got = _TABLES.get(id(resources))
    if got is not None and (<tuple>got)[0] is resources:
        return <dict>(<tuple>got)[1]
    cdef dict table = {}
    cdef Card c
    for cid, card in resources.items():
        c = Card()
        c.energy = card.kind == "energy"
        c.rocket = card.kind == "rocket"
        c.tech = card.kind == "tech"
        c.code = card.code
        c.damage = card.damage
        c.cost = tuple(card.cost)
        table[cid] = c
    if len(_TABLES) >= 64:
        _TABLES.clear()
    _TABLES[id(resources)] = (resources, table)
    return table


cdef list _sizes(object m):
    if m.get("face_up") and m.get("size") is not None:
        return [int(m["size"])]
    lo, hi = m["back"]
    return list(range(int(lo), int(hi) + 1))


cdef bint _subset_sum_py(list values, long target):
    if target <= 0:
        return target == 0
    cdef set reach = {0}
    for v in values:
        reach |= {r + v for r in reach if r + v <= target}
    return target in reach


cdef bint _subset_sum(list values, long target):
    """``meteor.subset_sum`` (sums of a subset of non-negative ints; anything else: the readable loop)."""
    cdef char reach[MAX_SUM + 1]
    cdef long v, r, i
    if target <= 0:
        return target == 0
    if target > MAX_SUM:
        return _subset_sum_py(values, target)
    for x in values:
        if x < 0:
            return _subset_sum_py(values, target)
    for i in range(target + 1):
        reach[i] = 0
    reach[0] = 1
    for x in values:
        v = x
        if v == 0:
            continue
        r = target - v
        while r >= 0:
            if reach[r]:
                reach[r + v] = 1
            r -= 1
    return reach[target] != 0


cdef class _Look:
    """What one call reads more than once: the view's parts and per-call memos."""
    cdef object bot, view, res
    cdef dict table
    cdef long seat
    cdef bint team
    cdef object field
    cdef list hand
    cdef dict by_name, by_place, meteors, usefulness, others
    cdef object codes, damages  # the hand's energy codes / rocket damages, counted (dicts), or None
    cdef int wanted  # _site_wanted: -1 not yet known

    def __init__(self, bot, view, dict table):
        self.bot = bot
        self.view = view
        self.table = table
        self.seat = int(view["seat"])
        self.team = int(view["players"]) > 1
        self.field = view["field"]
        self.hand = None
        self.by_name = None
        self.by_place = None
        self.meteors = None
        self.usefulness = {}
        self.others = {}
        self.codes = None
        self.damages = None
        self.wanted = -1

    cdef dict sites_by_name(self):
        if self.by_name is None:
            self.by_name = {}
            for s in self.view["sites"]:
                self.by_name.setdefault(s["site"], s)
        return self.by_name

    cdef dict sites_by_place(self):
        if self.by_place is None:
            self.by_place = {}
            for name, s in self.sites_by_name().items():
                seat, _, slot = name[1:].partition(".")
                self.by_place[(int(seat), int(slot) if slot else 0)] = s
        return self.by_place

    cdef list get_hand(self):
        if self.hand is None:
            self.hand = list(self.view["hands"][self.seat]["cards"] or [])
        return self.hand

    cdef void count_hand(self):
        cdef dict codes = {}
        cdef dict damages = {}
        cdef Card c
        for cid in self.get_hand():
            card = self.table.get(cid)
            if card is None:
                continue
            c = <Card>card
            if c.energy:
                codes[c.code] = codes.get(c.code, 0) + 1
            if c.rocket:
                damages[c.damage] = damages.get(c.damage, 0) + 1
        self.codes = codes
        self.damages = damages

    cdef double usefulness_of(self, long d) except? -1.0:
        got = self.usefulness.get(d)
        if got is not None:
            return <double>got
        cdef double best = 0.0, alone, volley
        cdef long hits, above, s
        cdef Py_ssize_t n
        for m in self.field:
            sizes = _sizes(m)
            n = len(sizes)
            hits = above = 0
            for x in sizes:
                s = x
                if s == d:
                    hits += 1
                if s > d:
                    above += 1
            if n == 0:
                raise ZeroDivisionError("division by zero")
            alone = <double>hits / <double>n
            volley = ((0.35 if d >= 3 else 0.15) if self.team and above > 0 else 0.0)
            if alone > best:
                best = alone
            if volley > best:
                best = volley
        self.usefulness[d] = best
        return best

    cdef double coverage(self, tuple cost) except? -1.0:
        if self.codes is None:
            self.count_hand()
        cdef dict have = <dict>self.codes
        cdef dict need = {}
        cdef long paid = 0, h, v
        for k in cost:
            need[k] = need.get(k, 0) + 1
        for k, nv in need.items():
            h = have.get(k, 0)
            v = nv
            paid += h if h < v else v
        cdef long size = len(cost)
        return <double>paid / <double>(size if size > 1 else 1)

    cdef bint site_wanted(self) except -1:
        cdef Card c
        if self.wanted < 0:
            self.wanted = 0
            for cid in self.get_hand():
                card = self.table.get(cid)
                if card is None:
                    continue
                c = <Card>card
                if c.rocket and self.usefulness_of(c.damage) > 0.2:
                    self.wanted = 1
                    break
        return self.wanted == 1

    cdef list other_rockets(self, object name):
        got = self.others.get(name)
        if got is None:
            got = [int(s["damage"]) for s in self.view["sites"] if s["status"] == "built"
                   and s["site"] != name and s.get("damage") is not None]
            self.others[name] = got
        return <list>got

    cdef object meteor_by_ref(self, object ref):
        if self.meteors is None:
            self.meteors = {}
            for m in self.field:
                self.meteors.setdefault(m["ref"], m)
        return self.meteors.get(ref)

    # ---- the values --------------------------------------------------------------------
    cdef double new_project(self, Card card) except? -1.0:
        cdef double use, cover
        if card.rocket:
            use = self.usefulness_of(card.damage)
            if use == 0:
                return 0.0
            cover = self.coverage(card.cost)
            return (1.0 + 2.0 * cover) * (0.5 + use) + 0.1 * card.damage
        cover = self.coverage(card.cost)
        return 1.5 + 2.0 * cover if cover >= 1.0 else 0.0

    cdef double retrofit_start(self, Card card):
        cdef long same
        if card.energy:
            if self.codes is None:
                self.count_hand()
            same = (<dict>self.codes).get(card.code, 0)
            if same >= 4 or len(self.codes) >= 4:
                return 1.2
            return 0.4 if same >= 2 or len(self.codes) >= 3 else 0.0
        if card.rocket:
            if self.damages is None:
                self.count_hand()
            same = (<dict>self.damages).get(card.damage, 0)
            return 1.0 if same >= 4 or len(self.damages) >= 4 else 0.0
        return 0.0

    cdef double retrofit_continue(self, object site, Card card) except? -1.0:
        cdef list on = []
        cdef Card c
        cdef bint energy = True, rocket = True
        for cid in site["cards"]:
            got = self.table.get(cid)
            if got is None:
                return 0.0
            c = <Card>got
            on.append(c)
            energy = energy and c.energy
            rocket = rocket and c.rocket
        if not on:
            return 0.0
        if energy and card.energy:
            codes = [(<Card>x).code for x in on]
            distinct = set(codes)
            if len(distinct) == 1 and card.code == codes[0]:
                return 4.0
            if len(distinct) == len(codes) and card.code not in distinct:
                return 4.0
            return 0.0
        if rocket and card.rocket:
            dmg = [(<Card>x).damage for x in on]
            distinct = set(dmg)
            if len(distinct) == 1 and card.damage == dmg[0]:
                return 4.0
            if len(distinct) == len(dmg) and card.damage not in distinct:
                return 4.0
        return 0.0

    cdef double place(self, object a, Card card) except? -1.0:
        """``_place_value`` of a placement whose site is not a started project, not built or dead, nor another
        seat's empty site."""
        site = self.sites_by_name().get(str(a.site))  # as _place_value finds it (by its name)
        if site is None:
            return 0.0
        status = site["status"]
        cdef bint mine = site["seat"] == self.seat
        self.get_hand()
        if status == "empty" and mine:
            if card.rocket or card.tech:
                return self.new_project(card)
            return self.retrofit_start(card)
        if status == "open" or status == "rocket_retrofit":
            return self.retrofit_continue(site, card) - (0.0 if mine else 0.5)
        return 0.0

    cdef double launch(self, object a) except? -1.0:
        if a.demolition or a.sharpshooter:
            return 0.0
        name = str(a.site)
        site = self.sites_by_name().get(name)
        if site is None or site.get("damage") is None:
            return 0.0
        cdef long d = int(site["damage"])
        target = a.target
        meteor = self.meteor_by_ref(target)
        if meteor is None:
            return 0.0
        view = self.view
        window = view.get("volley") or {}
        cdef long already = 0
        for x in window.get("launches", ()):
            if x["target"] == target:
                already += int(x["damage"])
        cdef list others = self.other_rockets(name)
        cdef list sizes = _sizes(meteor)
        cdef long zone = int(view["zone"])
        cdef double remaining = float(view["timer"]["remaining"] or 0.0)
        cdef bint last_meteor = len(self.field) == 1
        cdef double kill = 0.0, over = 0.0
        cdef long s, need
        for x in sizes:
            s = x
            need = s - already
            if d == need:
                kill += 1
            elif d > need:
                over += 1
            elif _subset_sum(others, need - d):
                kill += 0.6
        cdef Py_ssize_t n = len(sizes)
        if n == 0:
            raise ZeroDivisionError("float division by zero")
        cdef double p_kill = kill / n, p_over = over / n
        cdef bint any_volley
        if kill == 0 and over == 0:
            any_volley = False
            for x in sizes:
                s = x
                if _subset_sum(others, s - already - d):
                    any_volley = True
                    break
            if not any_volley:
                return 1.5 + (0.5 if n > 1 else 0.0) if self.site_wanted() else 0.0
        bot = self.bot
        cdef bint hurry = zone == 1 and remaining <= bot.patience
        cdef double overkill_cost = 0.0 if last_meteor or hurry else (40.0 if zone == 1 else <double>bot.overkill)
        cdef double value = KILL * p_kill - overkill_cost * p_over
        cdef long smallest
        if n > 1:
            smallest = min(sizes)
            if d >= smallest:
                value += 0.5
        if not hurry and p_kill < 0.99 and n == 1:
            value -= 3.0
        if hurry and value > 0:
            value += 3.0
        return value

    cdef double discard(self, object a) except? -1.0:
        site = self.sites_by_name().get(str(a.site))
        if site is None:
            return 0.0
        status = site["status"]
        if status == "dead":
            return 5.0
        if status == "rocket" and site.get("damage") is not None:
            return 2.5 if self.usefulness_of(int(site["damage"])) == 0 else 0.0
        return 0.0


def plain_values(bot, view, legal):
    """``bot._plain_values(view, legal)``: the value of each legal action (0.0 for the unvalued ones)."""
    cdef dict table = _table(bot.game.data.resources)
    cdef _Look look = _Look(bot, view, table)
    cdef list types = list(map(type, legal))
    cdef Py_ssize_t n = len(types), end, i
    cdef list out = [0.0] * n
    cdef long seat = look.seat
    cdef Card card
    try:
        end = types.index(Signal)
    except ValueError:
        end = n
    if not _ZERO.issuperset(types[end:]):
        end = n
    cdef dict by_place = None
    for i in range(end):
        kind = types[i]
        if kind is PlaceCard:
            if by_place is None:
                by_place = look.sites_by_place()
            a = legal[i]
            where = a.site
            site = by_place.get((where.seat, where.slot))
            got = table.get(a.card)
            if got is None or site is None:
                continue
            card = <Card>got
            status = site["status"]
            if status == "rocket" or status == "tech":
                missing = list(site.get("missing") or "")
                if card.energy and card.code in missing:
                    out[i] = ((7.0 if len(missing) == 1 else 5.0) + (0.5 if site["seat"] == seat else 0.0)
                              + (1.0 if status == "rocket" else 0.0))
            elif status == "empty" and site["seat"] == seat and (card.rocket or card.tech):
                look.get_hand()
                out[i] = look.new_project(card)
            elif not (status == "built" or status == "dead" or (status == "empty" and site["seat"] != seat)):
                out[i] = look.place(a, card)
        elif kind not in _ZERO and isinstance(legal[i], VALUED):
            if kind is Launch:
                out[i] = look.launch(legal[i])
            elif kind is CompleteRetrofit:
                out[i] = 8.0
            elif kind is DiscardProject:
                out[i] = look.discard(legal[i])
            else:
                out[i] = bot._value(view, legal[i])
    return out


def subset_sum(list values, long target):
    """``meteor.subset_sum`` as the kernel computes it (exposed for the differential test)."""
    return _subset_sum(values, target)


def useful(legal, list values):
    """``meteor.useful``: the (action, value) pairs the choice loop can pick or draw a tie-break for."""
    cdef Py_ssize_t n = len(values), i
    cdef double band = (n + 2) * 1e-9, v
    cdef bint near = False
    if len(legal) != n:
        raise ValueError("zip() arguments have different lengths")
    for x in values:
        v = x
        if v != 0.0 and -band < v < band:
            near = True
            break
    if near:
        return list(zip(legal, values))
    return [(legal[i], values[i]) for i in range(n) if <double>values[i] > 0.0]
