"""A stronger fair Meteor team (``team``) and, for simulation only, an omniscient planner (``omniscient``).

Why the plain heuristic loses: its games end on the Zone 1 timer with about three meteors left,
while the hands still hold 15-20 cards and the Resource Deck a third of its cards. Energy is the
scarce resource (39 of 76 cards, and a rocket costs 1-3 of them): the heuristic starts rockets its
hand cannot pay for, so the sites clog with projects waiting for energy nobody holds; rockets and
technologies pile up in the hands; it never turns them into new cards (its rocket retrofits never
got a second rocket: it looked for the status ``retrofit``, the engine says ``rocket_retrofit``);
and it fires weak rockets just to free a site, wasting their energy.

The team plays by conventions every seat applies to the same public information (sites, built
rockets and their damage, the open volley, the meteors, the removed meteors, every seat's Power and
Challenge) plus its own hand, so it coordinates without talking (MET-7, MET-D1: it never chats; its
only words are Pass and Launch):

- **information first**: whoever holds the Tracking Station starts it at once and the team pays
  for it before any rocket (with every meteor face up, as in a first game, the same conventions
  won 0.525 of 200 standard 4-player games, as often as the omniscient planner then); the Research
  Laboratory comes next while three or more zone changes are left (one more card per seat at each).
  Other technologies only when the hand pays for them;
- **time**: a player view's timer is computed at the last event; the seat adds the delays it waited
  itself, so that passing, stuck projects and the Zone 1 hurry see the time that really went by;
- **projects**: a seat starts a rocket on its own site only when its hand pays the whole cost, or
  all but one energy card that the other hands probably hold (inferred from the cards not yet seen,
  leaving out hands that cannot help: Homebody, Backwards; a Closed Site seat pays alone); the
  damage it picks is the one the field needs. A rocket may also join a site holding only energy
  that its cost contains;
- **retrofits**: rockets the seat cannot pay for alone (``junk_missing``: one energy card short or more;
  it was two until measured: 0.623/0.635/0.600 -> 0.660/0.688/0.655 over 400 standard 4-player games
  with seeds 0/1/2), rockets a Power Fault or Light Payloads site can never build, and rockets that
  fit no meteor are junk (such a rocket is still started when the other hands probably pay it). A seat
  with junk of two damages puts one on its empty site and its second on top (two rockets: a rocket
  retrofit, R1); every seat adds junk rockets that keep the pattern (all different, or all the same);
  nobody gives energy to a lone rocket nobody needs. Energy goes into a retrofit only when no project wants its type;
- **stuck projects**: a rocket project that has waited ``stuck_s`` seconds for energy nobody gave,
  or a technology other than the two above, is discarded when the hand has something better for the
  site (a rocket it pays, or a rocket retrofit);
- **volleys**: a built rocket is launched when it finishes a meteor exactly (alone, joining the
  open window, or opening a volley that the other built rockets, which everyone sees, can complete
  exactly), taking Cracked stores, Brittle, Shielded, Evasive, Dense and Volatile into account. A
  rocket never joins a volley that already destroys its meteor. A face-down meteor is weighed over
  every meteor card with that back that nobody has seen yet (``meteor_odds``): an Overkill there is
  a kill at the cost of the rest of the zone plus ``excess`` per damage point over, an under-hit
  wastes ``waste`` per damage point and reveals the meteor; the shot with the best expectation
  wins. A face-up meteor gets an Overkill only when the rocket has no exact use left;
- **Overkill** outside Zone 1 costs the rest of the zone (``overkill``, 4: the draws come anyway, but
  the zone's time is lost); on a Volatile meteor in Zone 2, or anything in Zone 1, it loses the game,
  except on the last meteor;
- **Boss volleys** (MET-11.4): a meteor no single rocket can destroy (a Boss, a 6, an Evasive one) is
  shot only with a volley that surely destroys it: exactly, or, where an Overkill costs little
  (``boss_overkill``, 0.5, in Zones 5-3), with the smallest excess the built rockets allow; the
  seats that see the window open join it until the sum is reached. While a Boss is in the field in
  Zones 5-3 (``boss_zone``), rockets of damage 3 or more (``boss_min``) are held for its volley
  (``boss_hold``) instead of being spent on standard meteors;
- **Powers**: Spotter reveals the Boss first (then the widest range), Demolition Expert's +1 and
  Sharpshooter's no-Overkill flags are used when they make a shot exact or safe, Chronometrist flips
  a nearly empty Zone 1 timer. Open Book (and everyone in a first game, R14) shows the hand whenever
  it holds cards nobody has seen, and the others count the shown energy when they decide whether the
  team can pay a rocket. Fuel Chemist and Solar Engineer count their substitutions when paying on
  their own site (and the others give a Fuel Chemist's site a Fuel for a missing Atomic). Mechanic
  takes back a project's most valuable card before the project is discarded. Courier hands a missing
  energy card to a teammate whose site this seat may not play on (Closed Site, or this seat is a
  Homebody). Quartermaster, Salvager and Twin Pads work by themselves (Twin Pads' second slot is one
  more own site); Radio Operator is not used (the team never talks). A Backwards seat plays cards by
  position onto its own empty site, where everyone sees them, and clears them when nobody builds on
  them (``blind_s``);
- **Challenges** are public (MET-D4): Closed Site, Homebody and Backwards hands are not counted on to
  pay, Power Fault and Light Payloads rockets are junk for their seat, Stubborn's seat never passes
  (the engine refuses it), One-Handed and Countdown only slow the seat down;
- **pass**: when it has nothing useful to do and the zone has run ``pass_after`` seconds (never in
  Zone 1).

``omniscient`` (:class:`MeteorOmniscient`) plays the same conventions but reads the whole state:
every meteor's size and trait, and every hand (a rocket is started when the team's hands can pay
for it). It is a bound for designers ("winnable with perfect information", as far as this planner
finds a way), for simulation only: rooms refuse it, and it cannot act from a player view.
"""

from __future__ import annotations

import operator
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from cosmodeck.bots.base import LazyView
from cosmodeck.bots.heuristic.meteor import MeteorHeuristic
from cosmodeck.bots.heuristic.meteor_odds import candidates
from cosmodeck.bots.params import Params
from cosmodeck.bots.reaction import ReactionTime
from cosmodeck.engine.rng import Rng
from cosmodeck.games.meteor.actions import (
    CompleteRetrofit,
    DiscardProject,
    Flip,
    Give,
    Launch,
    Mechanic,
    PlaceCard,
    ShowHand,
    Spot,
)
from cosmodeck.games.meteor.game import MeteorGame

KILL = 10.0
CLOCKED = (Launch, DiscardProject, Flip, Mechanic)  # actions whose value reads the clock (the team's own timed view)
VOLLEY_OPEN = 6.0  # opening (or joining) a volley the team can finish exactly
SHOW_VALUE = 2.5  # Open Book: showing new cards lets the others plan with them (below finishing a project)
USEFUL_TECHS = {"extra_draw_per_zone_change": 4.0, "reveal_all_meteors": 3.5, "overkill_by_one_is_safe": 2.5,
                "retrofit_with_3_on_demand": 2.5}


def subset_counts(values: Sequence[int], target: int) -> set[int]:
    """How many of ``values`` can sum exactly to ``target`` (the set of possible counts)."""
    if target < 0:
        return set()
    reach: dict[int, set[int]] = {0: {0}}
    for v in values:
        for total, counts in list(reach.items()):
            t = total + v
            if t <= target:
                reach.setdefault(t, set()).update(c + 1 for c in counts)
    return reach.get(target, set())


def reach_over(values: Sequence[int], target: int, least: int) -> int | None:
    """The smallest excess over ``target`` that a subset of at least ``least`` of ``values`` reaches.

    ``None`` when no such subset reaches ``target``. (A volley that goes over destroys the meteor with
    an Overkill.)"""
    best: int | None = None
    n = len(values)
    for mask in range(1, 1 << n):
        picked = [values[i] for i in range(n) if mask >> i & 1]
        if len(picked) < least:
            continue
        over = sum(picked) - target
        if over > 0 and (best is None or over < best):
            best = over
    return best


class MeteorTeam(MeteorHeuristic):
    name = "team"
    VALUED = (Launch, PlaceCard, CompleteRetrofit, DiscardProject, Spot, Flip, ShowHand, Mechanic, Give)

    def __init__(self, game: MeteorGame, patience: float = 6.0, reaction: ReactionTime | None = None,
                 pass_after: float = 20.0, overkill: float = 4.0, stuck_s: float = 20.0, waste: float = 0.6,
                 excess: float = 1.5, junk_retrofit: bool = True, junk_missing: int = 1,
                 track: float = 9.0, lab: float = 7.0, recycle: float = 0.0, free_site: float = 0.5,
                 big_overkill: float = 2.5, big_excess: float = 0.5,
                 blind_s: float = 20.0, boss_hold: float = 10.0, boss_zone: int = 3, boss_min: int = 3,
                 boss_overkill: float = 0.5) -> None:
        super().__init__(game, patience, reaction, pass_after, overkill)
        self.boss_overkill = boss_overkill
        self.boss_hold = boss_hold
        self.boss_zone = boss_zone
        self.boss_min = boss_min
        self.blind_s = blind_s
        self.big_overkill = big_overkill
        self.big_excess = big_excess
        self.stuck_s = stuck_s
        self.waste = waste
        self.excess = excess
        self.junk_retrofit = junk_retrofit
        self.junk_missing = junk_missing
        self.track = track
        self.lab = lab
        self.recycle = recycle
        self.free_site = free_site
        self._clock = 0.0  # the game time as this seat has lived it (see _timed)
        self._delay = 0.0
        self._shown = -1.0  # the view's own clock at the last look
        self._seen: dict[str, tuple[tuple[str, ...], float]] = {}  # own site -> (its cards, since when)
        self._now = 0.0

    @staticmethod
    def from_params(game: MeteorGame, p: Params, reaction: ReactionTime) -> MeteorTeam:
        patience = p.float("patience", 6.0, lo=0.0, hi=600.0)
        pass_after = p.float("pass_after", 20.0, lo=0.0, hi=600.0)
        overkill = p.float("overkill", 4.0, lo=0.0, hi=100.0)
        stuck_s = p.float("stuck_s", 20.0, lo=0.0, hi=600.0)
        waste = p.float("waste", 0.6, lo=0.0, hi=100.0)
        excess = p.float("excess", 1.5, lo=0.0, hi=100.0)
        junk_retrofit = p.int("retrofit", 1, lo=0, hi=1) != 0
        junk_missing = p.int("junk_missing", 1, lo=1, hi=4) or 1
        track = p.float("track", 9.0, lo=0.0, hi=100.0)
        lab = p.float("lab", 7.0, lo=0.0, hi=100.0)
        recycle = p.float("recycle", 0.0, lo=0.0, hi=100.0)
        free_site = p.float("free_site", 0.5, lo=0.0, hi=100.0)
        big_overkill = p.float("big_overkill", 2.5, lo=-1.0, hi=100.0)
        big_excess = p.float("big_excess", 0.5, lo=0.0, hi=100.0)
        blind_s = p.float("blind_s", 20.0, lo=0.0, hi=600.0)
        boss_hold = p.float("boss_hold", 10.0, lo=0.0, hi=100.0)
        boss_zone = p.int("boss_zone", 3, lo=1, hi=5) or 3
        boss_min = p.int("boss_min", 3, lo=1, hi=5) or 3
        boss_overkill = p.float("boss_overkill", 0.5, lo=0.0, hi=100.0)
        p.done()
        return MeteorTeam(game, patience, reaction, pass_after, overkill, stuck_s, waste, excess, junk_retrofit,
                          junk_missing, track, lab, recycle, free_site, big_overkill, big_excess, blind_s, boss_hold,
                          boss_zone, boss_min, boss_overkill)

    # ---- what this seat knows --------------------------------------------------------------
    def _hand(self, view: Mapping[str, Any]) -> list[str]:
        return list(view["hands"][int(view["seat"])]["cards"] or [])

    def _energy(self, view: Mapping[str, Any]) -> Counter[str]:
        """Energy letters this seat can count on: its own hand (the omniscient planner: every hand).

        Memoised per view; callers only read it."""
        memo = self._per_view(view)
        got: Counter[str] | None = memo.get("energy")
        if got is None:
            cards = (self._card(c) for c in self._hand(view))
            got = memo["energy"] = Counter(c.code for c in cards if c is not None and c.is_energy)
        return got

    def _needs(self, view: Mapping[str, Any]) -> defaultdict[int, float]:
        """How much the field wants each rocket damage: exact remaining sizes, low ends of face-down ranges.

        Memoised per view; callers only index it (a missing damage reads, and stays, 0)."""
        memo = self._per_view(view)
        got: defaultdict[int, float] | None = memo.get("needs")
        if got is None:
            got = memo["needs"] = self._fresh_needs(view)
        return got

    def _fresh_needs(self, view: Mapping[str, Any]) -> defaultdict[int, float]:
        want: defaultdict[int, float] = defaultdict(float)
        for m in view["field"]:
            store = int(m.get("store") or 0)
            if m.get("face_up") and m.get("size") is not None:
                need = int(m["size"]) - store
                if need > 0:
                    want[min(need, 5)] += 2 if need <= 5 else 1
                    for d in range(1, min(need, 5)):
                        want[d] += 1  # part of a volley
            else:
                lo, hi = (int(x) for x in m["back"])
                for s in range(lo, hi + 1):
                    need = s - store
                    if 0 < need <= 5:
                        want[need] += 2 if s == lo else 1
                    for d in range(1, min(need, 6)):
                        want[d] += 0.5
        return want

    def _teammates_may_pay(self, view: Mapping[str, Any], cost: Sequence[str], have: Counter[str]) -> bool:
        """Whether the energy this seat lacks for ``cost`` is probably in the other hands.

        Inferred from public information only: every energy card not in the discard pile, on a
        site or in this hand is in the Resource Deck or another hand, in proportion to their sizes.
        """
        lacking = Counter(cost) - have
        if not lacking:
            return True
        seat = int(view["seat"])
        if self._challenged(view, seat, "closed_site"):
            return False  # Closed Site: nobody else may place a card here
        if not lacking - self._known_help(view):
            return True  # a hand shown by Open Book (or a card given by Courier in view) holds it
        seen: Counter[str] = Counter()
        visible = [c for h in view["hands"] if int(h["seat"]) != seat for c in (h["cards"] or ())]  # Backwards
        known = [c for h in view["hands"] if int(h["seat"]) != seat and h["cards"] is None
                 for c in h.get("known") or ()]
        for c in [*view["discard"], *(x for s in view["sites"] for x in s["cards"]), *self._hand(view), *visible,
                  *known]:
            card = self._card(c)
            if card is not None and card.is_energy:
                seen[card.code] += 1
        # hands that cannot help: a Homebody may not place here, a Backwards seat cannot see what it holds
        others = sum(int(h["count"]) for h in view["hands"] if int(h["seat"]) != seat and h["cards"] is None
                     and not self._challenged(view, int(h["seat"]), "homebody"))
        share = others / max(1, others + int(view["resource_deck"]))
        total = self._energy_total()
        return all((total[k] - seen[k]) * share >= 0.9 * v for k, v in lacking.items())

    def _known_help(self, view: Mapping[str, Any]) -> Counter[str]:
        """Energy known to be in the hands that may place it on this seat's site (shown by Open Book)."""
        seat = int(view["seat"])
        out: Counter[str] = Counter()
        for h in view["hands"]:
            s = int(h["seat"])
            if s == seat or h["cards"] is not None or self._challenged(view, s, "homebody"):
                continue  # its own hand; a Backwards hand (its holder cannot choose the card); a Homebody
            for c in h.get("known") or ():
                card = self._card(c)
                if card is not None and card.is_energy:
                    out[card.code] += 1
        return out

    @staticmethod
    def _challenged(view: Mapping[str, Any], seat: int, key: str) -> bool:
        """Whether ``seat`` holds the Challenge ``key`` (Challenge cards are public, MET-D4)."""
        challenges = view.get("challenges") or ()
        return 0 <= seat < len(challenges) and bool(challenges[seat]) and challenges[seat].get("key") == key

    def _max_damage(self) -> int:
        """The strongest rocket's damage (MET-11.4: a bigger meteor needs a volley)."""
        if not hasattr(self, "_maxd"):
            self._maxd = max((int(c.damage) for c in self.game.data.resources.values() if c.is_rocket), default=5)
        return self._maxd

    def _energy_total(self) -> Counter[str]:
        if not hasattr(self, "_total"):
            self._total: Counter[str] = Counter(c.code for c in self.game.data.resources.values() if c.is_energy)
        return self._total

    def _missing_from(self, cost: Sequence[str], have: Counter[str]) -> int:
        need = Counter(cost)
        return sum(max(0, v - have[k]) for k, v in need.items())

    def _missing_here(self, view: Mapping[str, Any], cost: Sequence[str], have: Counter[str]) -> int:
        """Energy cards this seat lacks for ``cost`` on its own site, with its Power's substitutions (R2):
        Fuel Chemist lets Fuel and Atomic stand in for each other, Solar Engineer one Solar for any type."""
        missing = self._missing_from(cost, have)
        if not missing:
            return 0
        seat = int(view["seat"])
        data = self.game.data
        fuel, atomic, solar = data.code_of("fuel"), data.code_of("atomic"), data.code_of("solar")
        need, left = Counter(cost), Counter(have)
        if self._powered(view, seat, "fuel_chemist"):
            for a, b in ((fuel, atomic), (atomic, fuel)):
                short = max(0, need[a] - left[a])
                spare = max(0, left[b] - need[b])
                take = min(short, spare)
                left[a] += take
                left[b] -= take
        rest = Counter(need) - left
        missing = sum(rest.values())
        if missing and self._powered(view, seat, "solar_engineer") and left[solar] > need[solar]:
            missing -= 1  # one spare Solar counts as the missing type
        return missing

    def _stands_in(self, view: Mapping[str, Any], site: Mapping[str, Any], code: str, missing: Sequence[str]) -> bool:
        """Fuel Chemist's site: Fuel and Atomic stand in for each other (a missing A takes an F)."""
        if not missing or not self._powered(view, int(site["seat"]), "fuel_chemist"):
            return False
        fa = {self.game.data.code_of("fuel"), self.game.data.code_of("atomic")}
        return code in fa and any(m in fa for m in missing)

    @staticmethod
    def _powered(view: Mapping[str, Any], seat: int, key: str) -> bool:
        """Whether ``seat`` holds the Power ``key`` (Power cards are public, MET-D4)."""
        powers = view.get("powers") or ()
        return 0 <= seat < len(powers) and bool(powers[seat]) and powers[seat].get("key") == key

    def _junk(self, view: Mapping[str, Any], card: Any, have: Counter[str], want: defaultdict[int, float]) -> bool:
        """A rocket this seat would not build: it cannot pay for it, or the field has no use for it."""
        if not card.is_rocket:
            return False
        seat = int(view["seat"])
        if ("E" in card.cost and self._challenged(view, seat, "power_fault")) or (
                card.damage >= 4 and self._challenged(view, seat, "light_payloads")):
            return True  # this seat's own site can never build it
        if want[card.damage] <= 0 or (
                self.junk_retrofit and self._missing_here(view, card.cost, have) >= self.junk_missing):
            return True
        return not self._teammates_may_pay(view, card.cost, have)

    # ---- the decision -------------------------------------------------------------------------
    def reaction_time(self, rng: Rng) -> float:
        delay = super().reaction_time(rng)
        self._delay = delay  # the runner (or the room) asks this seat again after this delay
        return delay

    def act(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
        memo = isinstance(view, LazyView)
        if isinstance(view, LazyView):
            view = view.resolve()  # an engine view; it reads many keys
        if view.get("phase") == "play":
            view = self._timed(view)
            self._remember(view)
        return self._act(view, legal, rng, memo)

    def _timed(self, view: Mapping[str, Any]) -> Mapping[str, Any]:
        """The view with the time this seat has waited since it last looked.

        A player view's timer is computed at the game time of the last event; when nothing happens
        for a while (a simulated game between two events), a person still knows that time went by.
        The seat adds the delays it waited itself, so that ``pass_after``, ``stuck_s`` and the Zone 1
        hurry see the time that really passed (in a room, whose views are fresh, nothing changes).
        """
        shown = float(view.get("now") or 0.0)
        # a view whose clock moved is trusted (rooms advance the game before a bot looks); a view whose
        # clock stood still since the last look has aged by the delay this seat waited
        clock = self._clock + self._delay if shown == self._shown else shown
        self._clock, self._delay, self._shown = clock, 0.0, shown
        timer = view.get("timer") or {}
        if clock <= shown or not timer.get("running") or timer.get("deadline") is None:
            return view
        remaining = max(0.0, float(timer["deadline"]) - clock)
        return {**view, "now": clock, "timer": {**timer, "remaining": remaining}}

    def _remember(self, view: Mapping[str, Any]) -> None:
        seat = int(view["seat"])
        timer = view["timer"]
        now = float(timer["deadline"] or 0.0) - float(timer["remaining"] or 0.0)
        for s in view["sites"]:
            if s["seat"] != seat:
                continue
            cards = tuple(s["cards"])
            old = self._seen.get(s["site"])
            if old is None or old[0] != cards or now < old[1]:
                self._seen[s["site"]] = (cards, now)
        self._now = now

    def _choices(self, view: Mapping[str, Any], legal: Sequence[Any]) -> tuple[Any | None, list[tuple[Any, float]]]:
        return self._fresh_choices(view, legal)  # the values read the clock: computed at every look

    def _values(self, view: Mapping[str, Any], legal: Sequence[Any]) -> list[float]:
        """Launches, discards and flips read the clock (valued at each look); the values of the other actions
        read only the view (memoised per view and legal list)."""
        memo = self._per_view(view)
        got = memo.get("static")
        if got is not None and len(got[0]) == len(legal) and all(map(operator.is_, got[0], legal)):
            static: list[float | None] = got[1]
        else:
            valued = self.VALUED
            static = [None if isinstance(a, CLOCKED) else self._value(view, a) if isinstance(a, valued) else 0.0
                      for a in legal]
            memo["static"] = (list(legal), static)
        return [self._value(view, a) if v is None else v for a, v in zip(legal, static, strict=True)]

    def _value(self, view: Mapping[str, Any], a: Any) -> float:
        if isinstance(a, Launch):
            return self._launch_value(view, a)
        if isinstance(a, PlaceCard):
            return self._place_value(view, a)
        if isinstance(a, CompleteRetrofit):
            return 8.0
        if isinstance(a, DiscardProject):
            return self._discard_value(view, str(a.site))
        if isinstance(a, Spot):
            return self._spot_value(view, a.target)
        if isinstance(a, Flip):
            return self._flip_value(view)
        if isinstance(a, ShowHand):
            return self._show_value(view)
        if isinstance(a, Mechanic):
            return self._mechanic_value(view, str(a.site), a.card)
        if isinstance(a, Give):
            return self._give_value(view, a.card, a.to)
        return 0.0

    # ---- Powers (MET-D4: every seat's Power and Challenge are public) -----------------------
    @staticmethod
    def _spot_value(view: Mapping[str, Any], target: str) -> float:
        """Spotter: reveal a Boss first (the volley it needs must be planned exactly), else a wide range."""
        meteor = next((m for m in view["field"] if m["ref"] == target), None)
        if meteor is None or meteor.get("face_up") or meteor.get("hit"):
            return 0.0
        if meteor.get("kind") == "boss":
            return 7.0
        if any(m.get("kind") == "boss" and not m.get("face_up") and not m.get("hit") for m in view["field"]):
            return 0.0
        return 2.0 + 0.2 * (int(meteor["back"][1]) + int(meteor["back"][0]))

    def _show_value(self, view: Mapping[str, Any]) -> float:
        """Open Book (or a first game): show the hand whenever it holds cards the team has not seen."""
        seat = int(view["seat"])
        if self._blind(view) or not (view.get("first_game") or self._powered(view, seat, "open_book")):
            return 0.0  # show_hand: Open Book, or anyone in a first game (R14)
        own = view["hands"][seat]
        return SHOW_VALUE if Counter(own["cards"] or ()) - Counter(own.get("known") or ()) else 0.0

    def _mechanic_value(self, view: Mapping[str, Any], name: str, card_id: str) -> float:
        """Mechanic (once per zone): before a project is discarded, take back its most valuable card.

        Energy first (the scarce resource; Solar and Electric before Fuel and Atomic), else a rocket the
        field wants; the rest is then discarded as before."""
        if not self._powered(view, int(view["seat"]), "mechanic") or self._discard_value(view, name) <= 0:
            return 0.0
        site = self._site(view, name)
        if site is None:
            return 0.0
        def worth(cid: str) -> float:
            c = self._card(cid)
            if c is None:
                return 0.0
            if c.is_energy:
                return 2.0 + next((float(e.value) for e in self.game.data.energy if e.code == c.code), 1.0)
            return 1.0 if c.is_rocket and self._needs(view)[c.damage] > 0 else 0.0
        best = max((worth(c) for c in site["cards"]), default=0.0)
        return self._discard_value(view, name) + 0.5 if best > 0 and worth(card_id) == best else 0.0

    def _give_value(self, view: Mapping[str, Any], card_id: str, to: int) -> float:
        """Courier (once per zone): hand an energy card to a teammate whose own project misses it, when
        this seat may not place it there itself (a Closed Site, or this seat is a Homebody)."""
        seat = int(view["seat"])
        card = self._card(card_id)
        if card is None or not card.is_energy or not self._powered(view, seat, "courier"):
            return 0.0
        barred = self._challenged(view, to, "closed_site") or self._challenged(view, seat, "homebody")
        if not barred or self._challenged(view, to, "backwards"):
            return 0.0  # it may place the card itself; a Backwards teammate could not find it in its hand
        for s in view["sites"]:
            if s["seat"] == to and s["status"] in ("rocket", "tech") and card.code in (s.get("missing") or ""):
                return 6.0 if len(s.get("missing") or "") == 1 else 4.5
        return 0.0

    def _flip_value(self, view: Mapping[str, Any]) -> float:
        """Chronometrist: in Zone 1, flip a nearly empty last timer (remaining becomes length - remaining)."""
        timer = view["timer"]
        remaining = float(timer["remaining"] or 0.0)
        length = float(timer["length"] or 60.0)
        if int(view["zone"]) != 1 or remaining > min(12.0, length / 4):
            return 0.0
        return 9.0

    def _discard_value(self, view: Mapping[str, Any], name: str) -> float:
        site = self._site(view, name)
        if site is None or site.get("built"):
            return 0.0
        if site["status"] == "dead":
            return 5.0
        seen = self._seen.get(name)
        if self._blind(view) and seen is not None and site["cards"]:
            # Backwards: a blind card nobody builds on is cleared after a while, to try the next one
            waited = self._now - seen[1]
            head = next((c for c in (self._card(x) for x in site["cards"]) if c is not None and not c.is_energy), None)
            useless = head is not None and head.is_tech and head.effect not in USEFUL_TECHS
            return 2.0 if useless or waited >= self.blind_s else 0.0
        if site["status"] == "tech" and seen is not None and self._now - seen[1] >= self.stuck_s:
            head = next((c for c in (self._card(x) for x in site["cards"]) if c is not None and c.is_tech), None)
            if head is not None and head.effect not in ("reveal_all_meteors", "extra_draw_per_zone_change"):
                return 1.0 if self._waiting_rocket({**view, "sites": [x for x in view["sites"]
                                                                       if x["site"] != name]}) else 0.0
        if site["status"] != "rocket" or site.get("damage") is None:
            return 0.0
        if seen is None or self._now - seen[1] < self.stuck_s or len(site["cards"]) > 2:
            return 0.0
        have = self._energy(view)
        missing = list(site.get("missing") or "")
        if not Counter(missing) - have:
            return 0.0  # this seat can finish it itself
        hand = [self._card(c) for c in self._hand(view)]
        better = any(c is not None and c.is_rocket and self._missing_from(c.cost, have) == 0 for c in hand)
        if not better and self.junk_retrofit and int(view["resource_deck"]) >= 5:
            # room for a rocket retrofit of this hand's junk (it digs the deck for the missing energy)
            want = self._needs(view)
            junk = {c.damage for c in hand if c is not None and self._junk(view, c, have, want)}
            better = len(junk) >= 2
        return 1.0 if better else 0.0

    # ---- launching --------------------------------------------------------------------------
    def _launch_value(self, view: Mapping[str, Any], a: Launch) -> float:
        site = self._site(view, str(a.site))
        if site is None or site.get("damage") is None:
            return 0.0
        d = int(site["damage"]) + (1 if a.demolition else 0)  # Demolition Expert: +1, once per game
        flag_cost = 0.5 if a.demolition or a.sharpshooter else 0.0  # keep the once-per-game flags for need
        meteor = next((m for m in view["field"] if m["ref"] == a.target), None)
        if meteor is None:
            return 0.0
        window = view.get("volley") or {}
        aimed = [x for x in window.get("launches", ()) if x["target"] == a.target]
        already = sum(int(x["damage"]) for x in aimed) + int(meteor.get("store") or 0)
        in_window = {str(x.get("site")) for x in window.get("launches", ())}
        others = [int(s["damage"]) for s in view["sites"] if s.get("built") and s["site"] != str(a.site)
                  and s["site"] not in in_window and s.get("damage") is not None and not s.get("countdown")]
        zone = int(view["zone"])
        remaining = float(view["timer"]["remaining"] or 0.0)
        last = len(view["field"]) == 1
        hurry = zone == 1 and remaining <= self.patience
        up = bool(meteor.get("face_up")) and meteor.get("size") is not None
        faces = candidates(self.game.data, view, meteor)
        shield_up = not meteor.get("shield_spent") and not aimed
        if up and faces[0][1] == "shielded" and shield_up:
            # the first volley only spends the shield: spend it with the weakest rocket
            weakest = min([d, *others])
            return 3.0 - 0.5 * d if d == weakest and d <= 3 else 0.0
        total = kills = 0.0
        for size, trait in faces:
            v, k = self._outcome(view, d, size, trait, already, len(aimed), others, zone, last or hurry,
                                 shield_up, up, a.sharpshooter)
            total += v
            kills += k
        value, p_kill = total / len(faces) - flag_cost, kills / len(faces)
        if up and value == VOLLEY_OPEN - flag_cost:
            return value
        if value < 0 and not up and self.free_site > 0 and self._waiting_rocket(view):
            value = self.free_site  # a reveal that frees the site for a rocket this hand can pay now
        if hurry and p_kill > 0:
            value = max(value, 0.0) + 3.0
        elif self._held_for_boss(view, meteor, d, zone):
            value -= self.boss_hold
        return value

    def _held_for_boss(self, view: Mapping[str, Any], meteor: Mapping[str, Any], d: int, zone: int) -> bool:
        """Boss first: while a Boss is in the field in a high zone, strong rockets wait for its volley.

        An Overkill on the Boss there costs only the rest of the zone, so the team gathers built rockets
        until together they surely destroy it (``_outcome``: a cheap Overkill on a meteor no rocket can
        destroy alone), instead of spending them one by one on standard meteors."""
        if self.boss_hold <= 0 or zone < self.boss_zone or d < self.boss_min or meteor.get("kind") == "boss":
            return False
        return any(m.get("kind") == "boss" for m in view["field"])

    def _waiting_rocket(self, view: Mapping[str, Any]) -> bool:
        """Whether this seat's hand pays a whole rocket the field wants, with no free site of its own."""
        seat = int(view["seat"])
        if any(s["seat"] == seat and s["status"] == "empty" for s in view["sites"]):
            return False
        have = self._energy(view)
        want = self._needs(view)
        cards = (self._card(c) for c in self._hand(view))
        return any(c is not None and c.is_rocket and want[c.damage] > 0 and self._missing_from(c.cost, have) == 0
                   for c in cards)

    def _outcome(self, view: Mapping[str, Any], d: int, size: int, trait: str | None, already: int, aimed: int,
                 others: list[int], zone: int, free: bool, shield_up: bool, up: bool,
                 sharp: bool = False) -> tuple[float, float]:
        """The value of adding ``d`` to the volley on a meteor with this face, and whether that destroys it."""
        if trait == "shielded" and shield_up:
            return 1.0 - self.waste * d, 0.0  # a blind shot that only spends the shield
        dense = trait == "dense"
        hit = 0 if dense and d == 1 else d
        rockets = aimed + (0 if dense and d == 1 else 1)
        need = size - already
        evasion = 2 if trait == "evasive" else 3 if trait == "evasive_3" else 1
        pool = [o for o in others if not (dense and o == 1)]
        volley = VOLLEY_OPEN if up else 3.0
        if need <= 0 and rockets > evasion:
            return -self.waste * d - 1.0, 0.0  # the volley already destroys it: this rocket would add nothing
        big = size > self._max_damage() or evasion > 1  # no single rocket can ever destroy it
        # the Overkill that destroys a meteor no single rocket can (a Boss): ``boss_overkill`` outside Zones 1-2
        cheap = 0.0 if free else self._overkill_cost(zone, trait == "volatile", self.boss_overkill)
        if rockets < evasion:
            short = evasion - rockets
            if any(c >= short for c in subset_counts(pool, need - hit)):
                return volley, 0.0
            if free and len(pool) >= short and hit + sum(pool) >= need:
                return volley, 0.0  # an Overkill that costs nothing (the last meteor, or no time left)
            over = reach_over(pool, need - hit, short)
            if over is not None and cheap <= self.big_overkill:
                return volley - cheap - self.big_excess * over, 0.0  # a sure kill, with a cheap Overkill
            return -self.waste * d + (0.0 if up else 1.0), 0.0
        if hit == need:
            return KILL, 1.0
        if hit > need:
            if trait == "brittle" or sharp or (self._guided(view) and hit == need + 1):
                return KILL, 1.0  # no Overkill (Brittle, Sharpshooter, Guidance Computer)
            if big and aimed and cheap <= self.big_overkill:
                return KILL - cheap - self.big_excess * (hit - need), 1.0  # finish the volley the team opened
            cost = 0.0 if free else self._overkill_cost(zone, trait == "volatile")
            if up:
                if cost >= KILL or self._has_exact_use(view, d):
                    return -1.5 - 0.5 * (hit - need), 0.0  # wait for the shot that fits
                return KILL - cost - 4.0 - 0.5 * (hit - need), 1.0
            return KILL - cost - self.excess * (hit - need), 1.0
        if any(c >= 1 for c in subset_counts(pool, need - hit)):
            return volley, 0.0  # a volley the team can finish
        if free and pool and sum(pool) + hit >= need:
            return volley, 0.0
        if big and cheap <= self.big_overkill:
            over = reach_over(pool, need - hit, 1)
            if over is not None:
                return volley - cheap - self.big_excess * over, 0.0  # a sure kill, with a cheap Overkill
        if trait == "cracked":
            return 2.0 - 0.2 * d, 0.0  # Cracked keeps the damage: a step towards the kill
        return -self.waste * d + (1.0 if not up else -3.0), 0.0

    def _overkill_cost(self, zone: int, volatile: bool, base: float | None = None) -> float:
        """An Overkill costs the rest of the zone (the draws come anyway); in Zone 1 it loses the game.

        ``base`` is the cost outside Zones 1 and 2 (default ``overkill``)."""
        if zone == 1 or (zone == 2 and volatile):
            return 40.0
        cost = self.overkill if base is None else base
        if volatile:
            return cost + 4.0
        return cost + (2.0 if zone == 2 else 0.0)

    def _has_exact_use(self, view: Mapping[str, Any], d: int) -> bool:
        """Whether a rocket of damage ``d`` fits a face-up meteor exactly, alone or with the built rockets."""
        others = [int(s["damage"]) for s in view["sites"] if s.get("built") and s.get("damage") is not None]
        if d in others:
            others.remove(d)
        for m in view["field"]:
            if not (m.get("face_up") and m.get("size") is not None):
                continue
            need = int(m["size"]) - int(m.get("store") or 0)
            if d == need or (d < need and subset_counts(others, need - d)):
                return True
        return False

    def _guided(self, view: Mapping[str, Any]) -> bool:
        return any(t.get("effect") == "overkill_by_one_is_safe" for t in view.get("techs", ()))

    # ---- building ---------------------------------------------------------------------------
    def _blind(self, view: Mapping[str, Any]) -> bool:
        """Backwards (C04): this seat sees only the backs of its cards and plays them by position."""
        return view["hands"][int(view["seat"])]["cards"] is None

    def _place_value(self, view: Mapping[str, Any], a: PlaceCard) -> float:
        if a.card.startswith("@"):
            # Backwards: a card by position, onto its own empty site, where everyone (itself too) sees it
            site = self._site(view, str(a.site))
            ok = site is not None and site["status"] == "empty" and site["seat"] == int(view["seat"])
            return 1.0 if ok else 0.0
        card = self._card(a.card)
        site = self._site(view, str(a.site))
        if card is None or site is None:
            return 0.0
        seat = int(view["seat"])
        status = site["status"]
        mine = site["seat"] == seat
        want = self._needs(view)
        if status in ("rocket", "tech"):
            missing = list(site.get("missing") or "")
            if status == "rocket" and mine and card.is_rocket and self.junk_retrofit:
                return self._second_rocket_value(view, site, card, want)
            if not (card.is_energy and (card.code in missing or self._stands_in(view, site, card.code, missing))):
                return 0.0
            if status == "tech":
                head = next((self._card(c) for c in site["cards"] if (x := self._card(c)) is not None and x.is_tech),
                            None)
                if head is None or head.effect not in USEFUL_TECHS:
                    return 0.0
                if head.effect == "reveal_all_meteors" and self.track > 0:
                    return self.track
                if head.effect == "retrofit_with_3_on_demand" and self.recycle > 0 and int(view["resource_deck"]) > 8:
                    return self.recycle
                if head.effect == "extra_draw_per_zone_change" and self.lab > 0 and int(view["zone"]) >= 3:
                    return self.lab * (int(view["zone"]) - 2) / 3.0
                return 4.0 if len(missing) == 1 else 3.0
            dmg = int(site.get("damage") or 0)
            if self.junk_retrofit and not any(self._card(c).is_energy for c in site["cards"]) and want[dmg] <= 0:
                return 0.0  # a lone rocket nobody needs: its controller is starting a rocket retrofit
            use = 1.0 if want[dmg] > 0 else 0.3
            return ((7.0 if len(missing) == 1 else 5.0) + (0.5 if mine else 0.0) + 1.0) * use
        hand = self._hand(view)
        have = self._energy(view)
        if status == "empty" and mine:
            return self._start_value(view, card, hand, have, want)
        if status == "open" and card.is_rocket:
            return self._open_rocket_value(view, site, card, have, want)
        if status in ("open", "rocket_retrofit"):
            return self._continue_value(view, site, card, have, want) - (0.0 if mine else 0.3)
        return 0.0

    def _open_rocket_value(self, view: Mapping[str, Any], site: Mapping[str, Any], card: Any, have: Counter[str],
                           want: defaultdict[int, float]) -> float:
        """A rocket on a site holding only energy that its cost contains: it becomes a rocket project (R1)."""
        on = Counter(c.code for c in (self._card(x) for x in site["cards"]) if c is not None and c.is_energy)
        if len(site["cards"]) != sum(on.values()) or on - Counter(card.cost) or want[card.damage] <= 0:
            return 0.0
        rest = list((Counter(card.cost) - on).elements())
        missing = self._missing_from(rest, have)
        if missing and not self._teammates_may_pay(view, rest, have):
            return 0.0
        return 4.5 - 0.5 * missing + 0.1 * float(card.damage) - (0.0 if site["seat"] == int(view["seat"]) else 0.3)

    def _second_rocket_value(self, view: Mapping[str, Any], site: Mapping[str, Any], card: Any,
                             want: defaultdict[int, float]) -> float:
        """A second rocket on this seat's own lone junk rocket turns the site into a rocket retrofit (R1)."""
        on = [self._card(c) for c in site["cards"]]
        if len(on) != 1 or on[0] is None or not on[0].is_rocket:
            return 0.0
        have = self._energy(view)
        if not (self._junk(view, on[0], have, want) and self._junk(view, card, have, want)):
            return 0.0
        return 4.2 if card.damage != on[0].damage else 0.0

    def _start_value(self, view: Mapping[str, Any], card: Any, hand: list[str], have: Counter[str],
                     want: defaultdict[int, float]) -> float:
        if card.is_rocket:
            if "E" in card.cost and self._challenged(view, int(view["seat"]), "power_fault"):
                return self._retrofit_start_value(view, card, hand, have, want) if self.junk_retrofit else 0.0
            if want[card.damage] <= 0:
                return self._retrofit_start_value(view, card, hand, have, want) if self.junk_retrofit else 0.0
            missing = self._missing_here(view, card.cost, have)
            if missing >= 1 and not self._teammates_may_pay(view, card.cost, have):
                return self._retrofit_start_value(view, card, hand, have, want)
            # fewer energy cards per damage is better: energy is what runs out
            base = 4.0 if missing == 0 else 2.0 - 0.4 * missing
            return float(base + 0.3 * min(want[card.damage], 4) + 0.15 * card.damage - 0.1 * len(card.cost))
        if card.is_tech:
            gain = USEFUL_TECHS.get(card.effect, 0.0)
            if card.effect == "reveal_all_meteors" and self.track > 0:
                # exact shots for the rest of the game: worth more than any rocket (teammates pay what is missing)
                hidden = sum(1 for m in view["field"] if not m.get("face_up")) + int(view.get("meteor_deck") or 0)
                return self.track if hidden else 0.0
            if card.effect == "retrofit_with_3_on_demand" and self.recycle > 0:
                return self.recycle if int(view["resource_deck"]) > 8 else 0.0
            if card.effect == "extra_draw_per_zone_change" and self.lab > 0:
                return self.lab * (int(view["zone"]) - 2) / 3.0 if int(view["resource_deck"]) > 8 else 0.0
            if gain <= 0 or self._missing_from(card.cost, have) > 0:
                return 0.0
            zone = int(view["zone"])
            if card.effect == "extra_draw_per_zone_change":
                gain *= (zone - 1) / 4.0
            elif card.effect == "reveal_all_meteors":
                hidden = sum(1 for m in view["field"] if not m.get("face_up"))
                gain *= min(1.0, hidden / 3.0)
            return gain
        if card.is_energy:
            # only energy no rocket or useful technology could use (rare): a full pattern in hand
            cards = [self._card(c) for c in hand]
            if any(c is not None and (c.is_rocket or c.is_tech) and card.code in c.cost for c in cards):
                return 0.0
            if have[card.code] >= 4 or len(have) >= 4:
                return 0.8
            wanted = {k for st in view["sites"] for k in (st.get("missing") or "")}
            if card.code not in wanted and (have[card.code] >= 3 or len(have) >= 3):
                return 0.5  # a pattern the team can finish: four of a kind, or one of each
        return 0.0

    def _retrofit_start_value(self, view: Mapping[str, Any], card: Any, hand: list[str], have: Counter[str],
                              want: defaultdict[int, float]) -> float:
        junk = [c for c in (self._card(x) for x in hand) if c is not None and self._junk(view, c, have, want)]
        if len(junk) < 2 or not self._junk(view, card, have, want):
            return 0.0
        # the most common junk damage leads when four of a kind are in hand; else any (all-different)
        dmg = Counter(c.damage for c in junk)
        if max(dmg.values()) >= 4:
            return 1.4 if dmg[card.damage] >= 4 else 0.0
        if len(dmg) < 2:
            return 0.0
        return 0.9 + 0.1 * len(dmg)

    def _continue_value(self, view: Mapping[str, Any], site: Mapping[str, Any], card: Any, have: Counter[str],
                        want: defaultdict[int, float]) -> float:
        on = [self._card(c) for c in site["cards"]]
        if not on or any(c is None for c in on):
            return 0.0
        completes = len(on) == 3
        if all(c.is_rocket for c in on) and card.is_rocket:
            dmg = [c.damage for c in on]
            fits_same = len(set(dmg)) == 1 and card.damage == dmg[0]
            fits_diff = len(set(dmg)) == len(dmg) and card.damage not in dmg
            if not (fits_same or fits_diff):
                return 0.0
            if len(on) == 1 and fits_same:
                return 0.5  # commits to four of a kind: rarely finished
            if self._junk(view, card, have, want):
                return 4.5 if completes else 4.0
            return 3.0 if completes else 0.0
        if all(c.is_energy for c in on) and card.is_energy:
            codes = [c.code for c in on]
            fits = (len(set(codes)) == 1 and card.code == codes[0]) or (
                len(set(codes)) == len(codes) and card.code not in codes)
            return (3.5 if completes else 1.0) if fits else 0.0
        return 0.0


class MeteorOmniscient(MeteorTeam):
    """The team's conventions with the whole state in view (simulation only; see the module docstring)."""

    name = "omniscient"
    sees_state = True  # the simulator hands it the state; rooms refuse it (server/botlimits.py)

    @staticmethod
    def from_params(game: MeteorGame, p: Params, reaction: ReactionTime) -> MeteorOmniscient:
        team = MeteorTeam.from_params(game, p, reaction)
        return MeteorOmniscient(game, team.patience, reaction, team.pass_after, team.overkill, team.stuck_s,
                                team.waste, team.excess, team.junk_retrofit, team.junk_missing,
                                team.track, team.lab, team.recycle, team.free_site, team.big_overkill,
                                team.big_excess, team.blind_s, team.boss_hold, team.boss_zone,
                                team.boss_min, team.boss_overkill)

    def act(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
        raise RuntimeError("the omniscient Meteor planner reads the whole state: only the simulator can run it")

    def act_state(self, state: Any, seat: int, legal: Sequence[Any], rng: Rng) -> Any | None:
        """Decide with everything: true meteor faces and every hand."""
        view = dict(state.view(seat))
        data = self.game.data
        zone = int(view["zone"])
        field = []
        for m, fm in zip(view["field"], state.field, strict=True):
            face = data.meteors[fm.id].face(zone)
            field.append({**m, **face, "face_up": True})
        view["field"] = field
        view["hands"] = [{**h, "cards": list(state.hands[i])} for i, h in enumerate(view["hands"])]
        return super().act(view, legal, rng)

    def _energy(self, view: Mapping[str, Any]) -> Counter[str]:
        out: Counter[str] = Counter()
        for h in view["hands"]:
            for c in h["cards"] or ():
                card = self._card(c)
                if card is not None and card.is_energy:
                    out[card.code] += 1
        return out
