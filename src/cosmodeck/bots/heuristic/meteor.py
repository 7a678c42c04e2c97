"""A Meteor heuristic: a team of these bots builds rockets, retrofits dead hands and volleys.

Each bot decides alone from its own view (no talking is needed: everything it uses is public,
plus its own hand). In order of preference:

1. launch a built rocket of its own site when the shot is good: it finishes a meteor exactly
   (alone, or joining the damage already in the open volley window), or it opens a volley that
   the team's other built rockets can complete exactly; a face-down meteor is shot when the
   rocket is within its size range, preferring the smallest possible size (no Overkill risk);
   in zone 1, when the last timer is about to run out, any shot that may destroy something is
   taken (the game is lost otherwise);
2. complete a project: play the energy a rocket or technology project is missing (on any
   site), finish a retrofit, discard a dead project on its own site;
3. start a project on its own empty site: the rocket whose cost its hand covers best, or an
   energy/rocket retrofit when the hand holds a valid pattern and no rocket can be built;
4. say ``pass`` when it can do nothing useful and the zone has run ``pass_after`` seconds
   (when everyone passes, the zone changes and everyone draws), otherwise wait.

Parameters: ``patience`` (seconds before the last timer ends at which it fires whatever may work,
default 6), ``overkill`` (the cost, in destroyed meteors x 10, of risking an Overkill outside
zone 1, default 4), ``pass_after`` (seconds into a zone before it may pass, default 20: a team that
passes at once burns its zones), ``level`` (reaction time: easy/normal/hard).
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

from cosmodeck.bots.base import LazyView
from cosmodeck.bots.params import Params
from cosmodeck.bots.reaction import ReactionTime, SampledReaction
from cosmodeck.engine.rng import Rng
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
from cosmodeck.games.meteor.game import MeteorGame
from cosmodeck.games.meteor.view_bot import BOT_KEYS, BotView, bot_view

_fast: ModuleType | None
try:  # the values compiled (bots/heuristic/meteor_fast.pyx): the same floats, bit for bit
    from cosmodeck.bots.heuristic import meteor_fast as _fast
except ImportError:  # not built (a source tree without a C compiler): the readable methods, the same games
    _fast = None

KILL = 10.0


def _sizes(m: Mapping[str, Any]) -> list[int]:
    """The sizes a field meteor may have: exact when face up, else its back's range."""
    if m.get("face_up") and m.get("size") is not None:
        return [int(m["size"])]
    lo, hi = m["back"]
    return list(range(int(lo), int(hi) + 1))


class MeteorHeuristic(SampledReaction):
    name = "heuristic"
    # asked again at a state it waited at, it waits again and draws nothing: its waiting answer reads only the
    # view, the legal list and its per-view memo (sim/runner.py skips those asks; tests/sim/test_realtime_loop.py)
    steady = True
    # the keys of its seat's view it reads: those of ``view_for``'s projection (``games/meteor/view_bot.py``)
    view_keys: tuple[str, ...] = BOT_KEYS

    def __init__(self, game: MeteorGame, patience: float = 6.0, reaction: ReactionTime | None = None,
                 pass_after: float = 20.0, overkill: float = 4.0) -> None:
        self.game = game
        self.overkill = overkill
        self.patience = patience
        self.pass_after = pass_after
        self.reaction = reaction or ReactionTime()
        # What the simulator shows it (``sim/runner.py``): the game's projection of its seat's view on ``view_keys``
        # (``games/meteor/view_bot.py:bot_view``), or, for a subclass (it may read any key), the whole view (None).
        # It reads no state itself.
        self.view_for: Callable[[Any, int], Mapping[str, Any]] | None = (
            bot_view if type(self) is MeteorHeuristic else None)
        self._anchor: Any = None  # the view this seat last looked at (see _per_view)
        self._last_view: Any = None
        self._memo_on = False  # inside act() with an engine view (see _per_view)
        self._memo: dict[Any, Any] = {}
        # usefulness by damage, kept across views: (the field's entries, team game, value); see _usefulness
        self._use_cache: dict[int, tuple[tuple[Any, ...], bool, float]] = {}
        self._lasting: dict[Any, float] = {}  # values that depend on their key only (see _coverage)
        # a card's value on a started retrofit by (id of the site entry, card, seat): (that entry, value)
        self._on_site: dict[tuple[int, str, int], tuple[Any, float]] = {}

    @staticmethod
    def from_params(game: MeteorGame, p: Params, reaction: ReactionTime) -> MeteorHeuristic:
        patience = p.float("patience", 6.0, lo=0.0, hi=600.0)
        pass_after = p.float("pass_after", 20.0, lo=0.0, hi=600.0)
        overkill = p.float("overkill", 4.0, lo=0.0, hi=100.0)
        p.done()
        return MeteorHeuristic(game, patience, reaction, pass_after, overkill)

    # reaction_time and call_reaction_time: SampledReaction's (the simulator draws them without a call)

    # ---- helpers -------------------------------------------------------------------------
    def _card(self, cid: str) -> Any:
        return self.game.data.resources.get(cid)

    def _per_view(self, view: Mapping[str, Any]) -> dict[Any, Any]:
        """A memo for what this seat computes from ``view``, kept while it looks at the same view.

        A Meteor state memoises its views per version and seat (games/meteor/state.py): a seat that
        waits and looks again at an unchanged state gets a view sharing its lists with the last one.
        The identity of its ``hands`` list (built for one seat of one version), ``sites`` and ``field``
        lists (``is``, on objects this memo keeps alive) says "the same view"; a freshly built view (a
        changed state, another seat, a view from anywhere else, or a copy with other sites or field)
        gets an empty memo. Only views the engine built (a ``LazyView`` given to ``act``: the simulator,
        rooms' bots; or the game's bot view, ``view_bot.BotView``, which shares those lists the same way) are
        memoised; a view given as a plain mapping (a test may edit it between two
        calls) gets a fresh memo at every call.
        """
        if not self._memo_on:
            return {}
        if view is self._last_view:
            return self._memo
        self._last_view = view
        hands, sites, field = view["hands"], view["sites"], view["field"]
        anchor = self._anchor
        if anchor is None or anchor[0] is not hands or anchor[1] is not sites or anchor[2] is not field:
            self._anchor = (hands, sites, field)  # a view made with other sites or field is another view
            self._memo = {}
        return self._memo

    VALUED: tuple[type, ...] = (Launch, PlaceCard, CompleteRetrofit, DiscardProject)  # _value is 0 for the rest

    def _values(self, view: Mapping[str, Any], legal: Sequence[Any]) -> list[float]:
        """``_value`` of each legal action (``_plain_values`` when no subclass changed how values are made,
        compiled as ``meteor_fast.plain_values`` when built)."""
        if _plain(type(self)):
            if _fast is not None:
                values: list[float] = _fast.plain_values(self, view, legal)
                return values
            return self._plain_values(view, legal)
        valued = self.VALUED
        return [self._value(view, a) if isinstance(a, valued) else 0.0 for a in legal]

    def _plain_values(self, view: Mapping[str, Any], legal: Sequence[Any]) -> list[float]:
        """``[self._value(view, a) if isinstance(a, VALUED) else 0.0 for a in legal]``, with what every
        placement reads (the seat, the hand, the sites by name, the cards) looked up once, and each
        placement on a started project valued by ``_project_place_value`` (the same expressions as
        ``_place_value``); ``tests/bots/test_meteor_bot_speed_identical.py`` holds the decisions."""
        valued = self.VALUED
        res = self.game.data.resources
        seat = int(view["seat"])
        by_place = self._sites_by_place(view)
        hand: list[str] | None = None
        types = list(map(type, legal))
        out = [0.0] * len(types)
        # the talk closes an engine's legal list: from its first Signal on, every action valued 0 is skipped
        try:
            end = types.index(Signal)
        except ValueError:
            end = len(types)
        if not _ZERO.issuperset(types[end:]):
            end = len(types)
        for i in range(end):
            kind = types[i]
            if kind is PlaceCard:
                a = legal[i]
                site = by_place.get((a.site.seat, a.site.slot))
                card = res.get(a.card)
                if card is None or site is None:
                    continue
                status = site["status"]
                if status in ("rocket", "tech"):
                    out[i] = _project_place_value(site, card, seat, status)
                elif status == "empty" and site["seat"] == seat and (card.is_rocket or card.is_tech):
                    if hand is None:
                        hand = list(view["hands"][seat]["cards"] or [])
                    out[i] = self._new_project_value(view, card, hand)
                elif not (status in ("built", "dead") or (status == "empty" and site["seat"] != seat)):
                    out[i] = self._place_value(view, a)
            elif kind not in _ZERO and isinstance(legal[i], valued):
                out[i] = self._value(view, legal[i])
        return out

    def _choices(self, view: Mapping[str, Any], legal: Sequence[Any]) -> tuple[Any | None, list[tuple[Any, float]]]:
        """The Start or Resume to take at once, else the (action, value) pairs ``act`` chooses among.

        Memoised per view and legal list (the heuristic's values read nothing but the view).
        """
        memo = self._per_view(view)
        got = memo.get("choices")
        if got is not None and len(got[0]) == len(legal) and all(map(operator.is_, got[0], legal)):
            return got[1], got[2]
        start, pairs = self._fresh_choices(view, legal)
        memo["choices"] = (list(legal), start, pairs)
        return start, pairs

    def _fresh_choices(self, view: Mapping[str, Any], legal: Sequence[Any]) -> tuple[Any | None,
                                                                                     list[tuple[Any, float]]]:
        if not _NOT_START.issuperset(map(type, legal)):  # a Start or Resume (or an action of another class)
            for a in legal:
                if isinstance(a, (Start, Resume)):
                    return a, []
        if view["phase"] != "play":
            return None, []
        if _fast is not None:
            pairs: list[tuple[Any, float]] = _fast.useful(legal, self._values(view, legal))
            return None, pairs
        return None, useful(legal, self._values(view, legal))

    def act(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
        if isinstance(view, LazyView):
            return self._act(view.resolve(), legal, rng, memo=True)  # an engine view; it reads many keys
        # the engine's projection (``view_for``) is memoised as an engine view; any other mapping is not
        return self._act(view, legal, rng, memo=type(view) is BotView)

    def _act(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng, memo: bool) -> Any | None:
        self._memo_on = memo
        try:
            return self._decide(view, legal, rng)
        finally:
            self._memo_on = False

    def _decide(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
        if not legal:
            return None
        start, pairs = self._choices(view, legal)
        if start is not None:
            return start
        if view["phase"] != "play":
            return None
        best, best_v = None, 0.0
        for a, v in pairs:
            if v > best_v + 1e-9 or (abs(v - best_v) < 1e-9 and best is not None and rng.random() < 0.5):
                best, best_v = a, v
        if best is not None:
            return best
        seat = int(view["seat"])
        timer = view["timer"]
        elapsed = float(timer["length"]) - float(timer["remaining"] or 0.0)
        # in zone 1 a zone change is the end; elsewhere pass (to draw) only after giving the team time
        if not view["passes"][seat] and int(view["zone"]) > 1 and elapsed >= self.pass_after:
            for a in legal:
                if isinstance(a, Pass):
                    return a
        return None

    def _value(self, view: Mapping[str, Any], a: Any) -> float:
        if isinstance(a, Launch):
            return self._launch_value(view, a)
        if isinstance(a, PlaceCard):
            return self._place_value(view, a)
        if isinstance(a, CompleteRetrofit):
            return 8.0
        if isinstance(a, DiscardProject):
            site = self._site(view, str(a.site))
            if site is None:
                return 0.0
            if site["status"] == "dead":
                return 5.0
            if site["status"] == "rocket" and site.get("damage") is not None:  # a rocket nobody needs
                return 2.5 if self._usefulness(view, int(site["damage"])) == 0 else 0.0
            return 0.0
        return 0.0

    def _site_wanted(self, view: Mapping[str, Any]) -> bool:
        """Whether this seat's hand could start something on a free site."""
        memo = self._per_view(view)
        got: bool | None = memo.get("site_wanted")
        if got is None:
            hand = view["hands"][int(view["seat"])]["cards"] or []
            cards = [self._card(c) for c in hand]
            got = memo["site_wanted"] = any(c is not None and c.is_rocket and self._usefulness(view, c.damage) > 0.2
                                            for c in cards)
        return got

    def _usefulness(self, view: Mapping[str, Any], d: int) -> float:
        """How likely a rocket of damage ``d`` is to destroy something: alone, or in a team volley."""
        memo = self._per_view(view)
        key = ("usefulness", d)
        got: float | None = memo.get(key)
        if got is None:
            got = memo[key] = self._shared_usefulness(view, d)
        return got

    def _shared_usefulness(self, view: Mapping[str, Any], d: int) -> float:
        """``_fresh_usefulness``, reused from an earlier engine view with the very same field entries (the
        engine shares an unchanged meteor's entry between versions; views are read-only)."""
        if not self._memo_on:
            return self._fresh_usefulness(view, d)
        field = tuple(view["field"])
        team = int(view["players"]) > 1
        got = self._use_cache.get(d)
        if got is not None and got[1] == team and len(got[0]) == len(field) and all(map(operator.is_, got[0], field)):
            return got[2]
        value = self._fresh_usefulness(view, d)
        self._use_cache[d] = (field, team, value)  # the tuple keeps the entries alive: no id is reused
        return value

    def _fresh_usefulness(self, view: Mapping[str, Any], d: int) -> float:
        best = 0.0
        team = int(view["players"]) > 1
        for m in view["field"]:
            sizes = _sizes(m)
            alone = sum(1 for s in sizes if s == d) / len(sizes)
            volley = (0.35 if d >= 3 else 0.15) if team and any(s > d for s in sizes) else 0.0
            best = max(best, alone, volley)
        return best

    def _site(self, view: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
        return self._sites_by_name(view).get(name)

    def _sites_by_name(self, view: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
        memo = self._per_view(view)
        by_name: dict[str, Mapping[str, Any]] | None = memo.get("sites")
        if by_name is None:
            by_name = memo["sites"] = {}
            for s in view["sites"]:
                by_name.setdefault(s["site"], s)  # the first of a name, as a scan finds it
        return by_name

    def _sites_by_place(self, view: Mapping[str, Any]) -> dict[tuple[int, int], Mapping[str, Any]]:
        """``_site(view, str(Site(seat, slot)))`` by ``(seat, slot)`` (a Site's text is ``s<seat>``, or
        ``s<seat>.<slot>`` for a slot other than 0)."""
        memo = self._per_view(view)
        by_place: dict[tuple[int, int], Mapping[str, Any]] | None = memo.get("sites_by_place")
        if by_place is None:
            by_place = memo["sites_by_place"] = {}
            for name, s in self._sites_by_name(view).items():
                seat, _, slot = name[1:].partition(".")
                by_place[(int(seat), int(slot) if slot else 0)] = s
        return by_place

    # ---- launching ------------------------------------------------------------------------
    def _launch_value(self, view: Mapping[str, Any], a: Launch) -> float:
        if a.demolition or a.sharpshooter:
            return 0.0
        site = self._site(view, str(a.site))
        if site is None or site.get("damage") is None:
            return 0.0
        d = int(site["damage"])
        meteor = self._meteors_by_ref(view).get(a.target)
        if meteor is None:
            return 0.0
        window = view.get("volley") or {}
        already = sum(int(x["damage"]) for x in window.get("launches", ()) if x["target"] == a.target)
        # other built rockets of the team that could join this volley
        others = self._other_rockets(view, str(a.site))
        sizes = _sizes(meteor)
        zone = int(view["zone"])
        remaining = float(view["timer"]["remaining"] or 0.0)
        last_meteor = len(view["field"]) == 1
        kill = over = 0.0
        for s in sizes:
            need = s - already
            if d == need:
                kill += 1
            elif d > need:
                over += 1
            elif subset_sum(others, need - d):
                kill += 0.6  # a volley the team can complete
        n = len(sizes)
        p_kill, p_over = kill / n, over / n
        if kill == 0 and over == 0 and not any(subset_sum(others, s - already - d) for s in sizes):
            # too weak for anything, now or in a volley: fire it to free the site (and reveal the meteor)
            return 1.5 + (0.5 if n > 1 else 0.0) if self._site_wanted(view) else 0.0
        hurry = zone == 1 and remaining <= self.patience  # the last timer is running out: the game is lost anyway
        # an Overkill costs a whole zone (a fifth of the game); in zone 1 it loses the game
        overkill_cost = 0.0 if last_meteor or hurry else (40.0 if zone == 1 else self.overkill)
        value = KILL * p_kill - overkill_cost * p_over
        if n > 1 and d >= min(sizes):
            value += 0.5  # a reveal is worth a little
        if not hurry and p_kill < 0.99 and n == 1:
            value -= 3.0  # a known meteor: wait for an exact shot rather than gamble
        if hurry and value > 0:
            value += 3.0
        return value

    def _meteors_by_ref(self, view: Mapping[str, Any]) -> dict[Any, Mapping[str, Any]]:
        """The field's meteors by handle (the first of a handle, as a scan finds it), per view."""
        memo = self._per_view(view)
        got: dict[Any, Mapping[str, Any]] | None = memo.get("meteors")
        if got is None:
            got = memo["meteors"] = {}
            for m in view["field"]:
                got.setdefault(m["ref"], m)
        return got

    def _other_rockets(self, view: Mapping[str, Any], name: str) -> list[int]:
        """The damage of every built rocket on a site other than ``name`` (read-only; per view and site)."""
        memo = self._per_view(view)
        key = ("others", name)
        got: list[int] | None = memo.get(key)
        if got is None:
            got = memo[key] = [int(s["damage"]) for s in view["sites"] if s["status"] == "built"
                               and s["site"] != name and s.get("damage") is not None]
        return got

    # ---- building -------------------------------------------------------------------------
    def _place_value(self, view: Mapping[str, Any], a: PlaceCard) -> float:
        card = self._card(a.card)
        site = self._site(view, str(a.site))
        if card is None or site is None:
            return 0.0
        seat = int(view["seat"])
        status = site["status"]
        mine = site["seat"] == seat
        if status in ("rocket", "tech"):
            missing = list(site.get("missing") or "")
            if card.is_energy and card.code in missing:
                done = len(missing) == 1
                return (7.0 if done else 5.0) + (0.5 if mine else 0.0) + (1.0 if status == "rocket" else 0.0)
            return 0.0
        hand = list(view["hands"][seat]["cards"] or [])
        if status == "empty" and mine:
            if card.is_rocket or card.is_tech:
                return self._new_project_value(view, card, hand)
            return self._retrofit_start(hand, card)
        if status in ("open", "rocket_retrofit"):  # anyone may add to a retrofit once its controller started it
            if not self._memo_on:
                return self._retrofit_continue(site, card) - (0.0 if mine else 0.5)
            # it reads the site's entry and the card only: reused while the engine shares that very entry
            key = (id(site), a.card, seat)
            got = self._on_site.get(key)
            if got is not None and got[0] is site:
                return got[1]
            value = self._retrofit_continue(site, card) - (0.0 if mine else 0.5)
            if len(self._on_site) >= 20_000:
                self._on_site.clear()
            self._on_site[key] = (site, value)  # keeps the entry alive: its id is not reused meanwhile
            return value
        return 0.0

    def _new_project_value(self, view: Mapping[str, Any], card: Any, hand: list[str]) -> float:
        """A rocket or technology card started on this seat's empty site."""
        if card.is_rocket:
            use = self._usefulness(view, card.damage)
            if use == 0:
                return 0.0
            cover = _coverage(self, hand, card.cost)
            return float((1.0 + 2.0 * cover) * (0.5 + use) + 0.1 * card.damage)
        cover = _coverage(self, hand, card.cost)
        return 1.5 + 2.0 * cover if cover >= 1.0 else 0.0

    def _retrofit_start(self, hand: list[str], card: Any) -> float:
        """Start an energy or rocket retrofit when the hand holds a full valid pattern."""
        if card.is_energy:
            codes = self._hand_counts(hand)[0]
            same = codes[card.code] >= 4
            rainbow = len(codes) >= 4
            if same or rainbow:
                return 1.2
            # a partial pattern the team can finish (anyone may add to a started retrofit)
            return 0.4 if codes[card.code] >= 2 or len(codes) >= 3 else 0.0
        if card.is_rocket:
            dmg = self._hand_counts(hand)[1]
            return 1.0 if dmg[card.damage] >= 4 or len(dmg) >= 4 else 0.0
        return 0.0

    def _hand_counts(self, hand: list[str]) -> tuple[Counter[str], Counter[int]]:
        """The hand's energy codes and rocket damages, counted (memoised per view and hand: read-only)."""
        key = ("hand_counts", tuple(hand))
        got: tuple[Counter[str], Counter[int]] | None = self._memo.get(key) if self._memo_on else None
        if got is None:
            cards = [self._card(c) for c in hand]
            got = (Counter(c.code for c in cards if c is not None and c.is_energy),
                   Counter(c.damage for c in cards if c is not None and c.is_rocket))
            if self._memo_on:
                self._memo[key] = got
        return got

    def _retrofit_continue(self, site: Mapping[str, Any], card: Any) -> float:
        on = [self._card(c) for c in site["cards"]]
        if not on or any(c is None for c in on):
            return 0.0
        if all(c.is_energy for c in on) and card.is_energy:
            codes = [c.code for c in on]
            if len(set(codes)) == 1 and card.code == codes[0]:
                return 4.0
            if len(set(codes)) == len(codes) and card.code not in codes:
                return 4.0
            return 0.0
        if all(c.is_rocket for c in on) and card.is_rocket:
            dmg = [c.damage for c in on]
            if len(set(dmg)) == 1 and card.damage == dmg[0]:
                return 4.0
            if len(set(dmg)) == len(dmg) and card.damage not in dmg:
                return 4.0
        return 0.0


_PLAIN_METHODS = ("_value", "_place_value", "_launch_value", "_site", "_sites_by_name", "_sites_by_place", "_card",
                  "_usefulness", "_retrofit_start", "_retrofit_continue", "_site_wanted", "_fresh_usefulness",
                  "_shared_usefulness", "_hand_counts", "_new_project_value", "_meteors_by_ref",
                  "_other_rockets", "_per_view")
_PLAIN: dict[type, bool] = {}
# actions whose _value is 0 (not VALUED), and every action class but Start and Resume (exact classes)
_ZERO = frozenset({Spot, Flip, Mechanic, Give, ShowHand, Pass, Signal, Emote, Chat, TimeOut, Start, MeteorMulligan,
                   Resume})
_NOT_START = frozenset({PlaceCard, DiscardProject, Launch, CompleteRetrofit} | _ZERO) - {Start, Resume}


def _plain(cls: type) -> bool:
    """Whether ``cls`` values actions as ``MeteorHeuristic`` does (no method ``_plain_values`` bypasses is
    overridden), so ``_plain_values`` may stand for the per-action calls."""
    got = _PLAIN.get(cls)
    if got is None:
        got = _PLAIN[cls] = all(getattr(cls, m) is getattr(MeteorHeuristic, m) for m in _PLAIN_METHODS)
    return got


def _project_place_value(site: Mapping[str, Any], card: Any, seat: int, status: str) -> float:
    """``_place_value`` of a card on a started rocket or technology (``status``) of ``site``."""
    missing = list(site.get("missing") or "")
    if card.is_energy and card.code in missing:
        done = len(missing) == 1
        return (7.0 if done else 5.0) + (0.5 if site["seat"] == seat else 0.0) + (1.0 if status == "rocket" else 0.0)
    return 0.0


def _coverage(bot: MeteorHeuristic, hand: list[str], cost: Sequence[str]) -> float:
    """The share of ``cost`` (energy letters) the hand can pay."""
    if not bot._memo_on:
        return _fresh_coverage(bot, hand, cost)
    key = (tuple(hand), tuple(cost))
    memo = bot._lasting  # it depends on the hand and cost only (and the game's cards): valid for any view
    got: float | None = memo.get(key)
    if got is None:
        if len(memo) >= 20_000:
            memo.clear()
        got = memo[key] = _fresh_coverage(bot, hand, cost)
    return got


def _fresh_coverage(bot: MeteorHeuristic, hand: list[str], cost: Sequence[str]) -> float:
    have = bot._hand_counts(hand)[0]  # the hand's energy codes, counted
    need: dict[str, int] = {}
    for k in cost:
        need[k] = need.get(k, 0) + 1
    paid = sum(min(have[k], v) for k, v in need.items())
    return paid / max(1, len(cost))


def useful(legal: Sequence[Any], values: list[float]) -> list[tuple[Any, float]]:
    """The (action, value) pairs that ``act``'s choice loop can pick or draw a tie-break for.

    The loop keeps the best value above 0 (ties within 1e-9 are broken by a coin). When no value lies
    strictly between ``-b`` and ``b`` but 0 (``b = (n + 2) * 1e-9``), a kept value is always above
    ``2e-9``, so the values at or below 0 can neither win nor tie (and draw no coin): they are left out.
    Otherwise every pair is kept, and the loop runs as over the whole list.
    """
    band = (len(values) + 2) * 1e-9
    pairs = list(zip(legal, values, strict=True))
    distinct = set(values)  # most values are 0.0 and the others few: test each distinct value once
    distinct.discard(0.0)
    if any(-band < v < band for v in distinct):
        return pairs
    return [(a, v) for a, v in pairs if v > 0.0]


def subset_sum(values: list[int], target: int) -> bool:
    if target <= 0:
        return target == 0
    reach = {0}
    for v in values:
        reach |= {r + v for r in reach if r + v <= target}
    return target in reach
