"""Meteor knowledge for the ISMCTS bot: root candidates, a playout policy and a shaped reward.

Uniform random playouts say nothing in Meteor: about two thirds of the legal actions are talk
(signals, emotes, pointing), a random team never wins, and a playout is ~700 (2 players) to
~2000 (4 players) decisions. ``prior(game)`` therefore returns a :class:`~cosmodeck.bots.ismcts.Guide`:

- **root candidates** (``scores``): the Meteor heuristic's value of each legal action, read
  from the seat's view (``bots/heuristic/meteor.py``); Pass is a candidate when the heuristic
  would pass. Talk, Time Outs and actions the heuristic finds useless are never searched;
  when no action is worth anything, the bot waits without searching;
- **playout policy** (:class:`MeteorPlayout`): the same rules of thumb, computed straight from
  the searched (determinized) state: launch a rocket at a meteor it can finish (alone, joining
  the open volley, or opening one the team's built rockets can complete), pay the energy a
  project is missing, start the best-covered rocket or technology, retrofit a hand that holds
  a pattern, discard a dead project, pass once the zone has run ``pass_after`` seconds. It
  uses only what its seat could see (meteor backs, not the sampled identities), and a
  Backwards seat does not use its hand, as the heuristic cannot;
- **reward**: a win is worth 0.8 plus 0.04 per zone card left; a loss ``0.3 * 0.6**k`` for
  ``k`` meteors left, so that playouts that all lose still say which line got closer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cosmodeck.bots.heuristic.meteor import MeteorHeuristic, subset_sum
from cosmodeck.bots.ismcts import Guide
from cosmodeck.engine.result import Result
from cosmodeck.engine.rng import Rng
from cosmodeck.games.meteor.actions import (
    CompleteRetrofit,
    DiscardProject,
    Launch,
    Pass,
    PlaceCard,
    Resume,
    Site,
    Start,
)
from cosmodeck.games.meteor.game import MeteorGame
from cosmodeck.games.meteor.rules_sites import DEAD, classify, three_card_retrofit
from cosmodeck.games.meteor.state import MeteorState

SKIP = -1e9  # talk, Time Out and the like: never searched


def reward(result: Result, players: int) -> list[float]:
    """Shaped team reward in [0, 1] (see the module docstring)."""
    details = result.details or {}
    if result.team_win:
        r = 0.8 + 0.04 * float(details.get("zone", 0))
    else:
        r = 0.3 * 0.6 ** int(details.get("meteors_left", 10))
    return [min(1.0, r)] * players


class MeteorGuide(Guide[MeteorState]):
    """The Meteor heuristic as root candidates, :class:`MeteorPlayout` as playout policy."""

    def __init__(self, game: MeteorGame) -> None:
        self.heuristic = MeteorHeuristic(game)
        self.playout = MeteorPlayout(game)
        self.act_floor = 0.3
        self.idle_s = 10.0

    def scores(self, view: Mapping[str, Any], seat: int, legal: Sequence[Any]) -> list[float]:
        h = self.heuristic
        out: list[float] = []
        if view["phase"] != "play" or view["time_out"] is not None:
            return [100.0 if isinstance(a, (Start, Resume)) else SKIP for a in legal]
        timer = view["timer"]
        elapsed = float(timer["length"]) - float(timer["remaining"] or 0.0)
        passing = not view["passes"][seat] and int(view["zone"]) > 1
        for a in legal:
            if isinstance(a, Pass):
                out.append(0.0)
            elif isinstance(a, (Launch, PlaceCard, CompleteRetrofit, DiscardProject)):
                v = h._value(view, a)
                out.append(v if v > 0 else SKIP)
            else:
                out.append(SKIP)
        # Pass: only when the heuristic would (nothing else worth doing, the zone has run a while)
        would_pass = passing and elapsed >= h.pass_after and max(out, default=SKIP) <= 0
        return [(0.5 if would_pass else SKIP) if isinstance(a, Pass) else v for a, v in zip(legal, out, strict=True)]

    def policy(self, state: MeteorState, seat: int, rng: Rng) -> Any | None:
        return self.playout(state, seat, rng)

    def reward(self, result: Result, players: int) -> list[float]:
        return reward(result, players)


def prior(game: MeteorGame) -> MeteorGuide:
    return MeteorGuide(game)


class MeteorPlayout:
    """A fast rule-of-thumb player on a Meteor state (see the module docstring); ``None`` waits."""

    def __init__(self, game: MeteorGame, pass_after: float = 20.0, patience: float = 6.0,
                 overkill: float = 4.0) -> None:
        data = game.data
        self.res = data.resources
        self.meteors = data.meteors
        self.timer_s = float(game.options["zone_timer_s"])
        self.pass_after = pass_after
        self.patience = patience
        self.overkill = overkill

    def __call__(self, st: MeteorState, seat: int, rng: Rng) -> Any | None:
        if st.phase != "play":
            return Start() if seat == 0 else None
        if st.paused is not None:
            return Resume() if seat in (0, st.paused["by"]) else None
        cands: list[tuple[float, float, Any]] = []
        self._launches(st, seat, cands, rng)
        if not st.has_challenge(seat, "backwards"):
            self._places(st, seat, cands, rng)
        for site in st.own_sites(seat):
            if st.sites[seat][site.slot] and not st.built[seat][site.slot]:
                if three_card_retrofit(st, site) and st.has_tech("retrofit_with_3_on_demand"):
                    cands.append((8.0, rng.random(), CompleteRetrofit(site)))
                elif self._dead(st, site):
                    cands.append((5.0, rng.random(), DiscardProject(site)))
        cands.sort(key=lambda c: (c[0], c[1]), reverse=True)
        for v, _, a in cands:
            if v <= 0:
                break
            if st.is_legal(seat, a):
                return a
        remaining = (st.timer_end - st.now) if st.timer_end is not None else self.timer_s
        if (not st.passes[seat] and st.zone > 1 and self.timer_s - remaining >= self.pass_after
                and not st.has_challenge(seat, "stubborn")):
            return Pass()
        return None

    # ---- what the seat may know of a meteor ---------------------------------------------
    def _sizes(self, st: MeteorState, fm: Any) -> range:
        card = self.meteors[fm.id]
        if fm.up:
            s = card.size_in(st.zone)
            return range(s, s + 1)
        return range(card.back[0], card.back[1] + 1)

    def _usefulness(self, st: MeteorState, d: int, memo: dict[int, float]) -> float:
        if d in memo:
            return memo[d]
        best = 0.0
        team = st.players > 1
        for fm in st.field:
            sizes = self._sizes(st, fm)
            alone = sum(1 for s in sizes if s - fm.store == d) / len(sizes)
            volley = (0.35 if d >= 3 else 0.15) if team and sizes[-1] - fm.store > d else 0.0
            best = max(best, alone, volley)
        memo[d] = best
        return best

    # ---- launching -----------------------------------------------------------------------
    def _launches(self, st: MeteorState, seat: int, cands: list[tuple[float, float, Any]], rng: Rng) -> None:
        res = self.res
        built = st.built[seat]
        if not any(built):
            return
        aimed: dict[str, int] = {}
        count: dict[str, int] = {}
        if st.window is not None:
            for e in st.window["launches"]:
                aimed[e["target"]] = aimed.get(e["target"], 0) + res[e["cards"][0]].damage
                count[e["target"]] = count.get(e["target"], 0) + 1
        pending = {(int(cd["site"][0]), int(cd["site"][1])) for cd in st.countdowns}
        team = [res[next(c for c in cards if res[c].is_rocket)].damage
                for s in range(st.players) if s != seat
                for cards, b in zip(st.sites[s], st.built[s], strict=True) if b]
        remaining = (st.timer_end - st.now) if st.timer_end is not None else self.timer_s
        hurry = st.zone == 1 and remaining <= self.patience
        last = len(st.field) == 1
        over_cost = 0.0 if last or hurry else (40.0 if st.zone == 1 else self.overkill)
        for slot, b in enumerate(built):
            if not b or (seat, slot) in pending:
                continue
            d = res[next(c for c in st.sites[seat][slot] if res[c].is_rocket)].damage
            for fm in st.field:
                card = self.meteors[fm.id]
                sizes = self._sizes(st, fm)
                already = aimed.get(fm.ref, 0) + fm.store
                n = len(sizes)
                kill = over = 0.0
                for s in sizes:
                    need = s - already
                    if d == need:
                        kill += 1
                    elif d > need:
                        if fm.up and card.trait == "brittle":
                            kill += 1
                        else:
                            over += 1
                    elif subset_sum(team, need - d):
                        kill += 0.6
                if fm.up and (card.trait in ("evasive", "evasive_3") and
                              count.get(fm.ref, 0) + 1 < (2 if card.trait == "evasive" else 3)):
                    kill *= 0.6  # it needs a team volley
                if fm.up and card.trait == "shielded" and not fm.shield_spent:
                    kill, over = 0.0, 0.0  # the first volley only spends the shield
                value = 10.0 * kill / n - over_cost * over / n
                if n > 1 and d >= sizes[0] - already:
                    value += 0.5
                if not hurry and kill / n < 0.99 and n == 1:
                    value -= 3.0
                if hurry and value > 0:
                    value += 3.0
                if value > 0:
                    cands.append((value, rng.random(), Launch(Site(seat, slot), fm.ref)))

    # ---- building ------------------------------------------------------------------------
    def _places(self, st: MeteorState, seat: int, cands: list[tuple[float, float, Any]], rng: Rng) -> None:
        res = self.res
        hand = st.hands[seat]
        if not hand:
            return
        have: dict[str, int] = {}  # energy letter -> count in hand
        one: dict[str, str] = {}  # energy letter -> a card of it
        for c in hand:
            card = res[c]
            if card.is_energy:
                have[card.code] = have.get(card.code, 0) + 1
                one.setdefault(card.code, c)
        memo: dict[int, float] = {}
        for s in range(st.players):
            for slot, cards in enumerate(st.sites[s]):
                if st.built[s][slot]:
                    continue
                mine = s == seat
                site = Site(s, slot)
                if not cards:
                    if mine:
                        self._starts(st, hand, have, one, site, cands, rng, memo)
                    continue
                heads = [res[c] for c in cards if not res[c].is_energy]
                codes = [res[c].code for c in cards if res[c].is_energy]
                if len(heads) == 1:
                    if not one:
                        continue
                    missing = list(heads[0].cost)
                    for code in codes:
                        if code not in missing:
                            break  # dead, or paid by a substitution: left to its controller
                        missing.remove(code)
                    else:
                        value = ((7.0 if len(missing) == 1 else 5.0) + (0.5 if mine else 0.0)
                                 + (1.0 if heads[0].is_rocket else 0.0))
                        for code in dict.fromkeys(missing):  # not a set: its order varies by process
                            if code in one:
                                cands.append((value, rng.random(), PlaceCard(one[code], site)))
                elif not heads and len(codes) < 4:
                    if not one:
                        continue
                    value = 4.0 - (0.0 if mine else 0.5)
                    if len(set(codes)) == 1 and codes[0] in one:
                        cands.append((value, rng.random(), PlaceCard(one[codes[0]], site)))
                    elif len(set(codes)) == len(codes):
                        for code, c in one.items():
                            if code not in codes:
                                cands.append((value, rng.random(), PlaceCard(c, site)))
                                break
                elif not codes and all(h.is_rocket for h in heads) and len(heads) < 4:
                    dmg = [h.damage for h in heads]
                    for c in hand:
                        card = res[c]
                        if card.is_rocket and ((len(set(dmg)) == 1 and card.damage == dmg[0])
                                               or (len(set(dmg)) == len(dmg) and card.damage not in dmg)):
                            cands.append((4.0 - (0.0 if mine else 0.5), rng.random(), PlaceCard(c, site)))
                            break

    def _starts(self, st: MeteorState, hand: list[str], have: dict[str, int], one: dict[str, str], site: Site,
                cands: list[tuple[float, float, Any]], rng: Rng, memo: dict[int, float]) -> None:
        res = self.res
        best: tuple[float, str] | None = None
        rockets: dict[int, int] = {}
        for c in hand:
            card = res[c]
            if card.is_energy:
                continue
            cost = card.cost
            paid = 0
            left = dict(have)
            for code in cost:
                if left.get(code, 0) > 0:
                    left[code] -= 1
                    paid += 1
            cover = paid / max(1, len(cost))
            if card.is_rocket:
                rockets[card.damage] = rockets.get(card.damage, 0) + 1
                use = self._usefulness(st, card.damage, memo)
                if use == 0:
                    continue
                v = (1.0 + 2.0 * cover) * (0.5 + use) + 0.1 * card.damage
            elif cover >= 1.0:
                v = 1.5 + 2.0 * cover
            else:
                continue
            if best is None or v > best[0]:
                best = (v, c)
        if best is not None:
            cands.append((best[0], rng.random(), PlaceCard(best[1], site)))
        if have and (max(have.values()) >= 4 or len(have) >= 4):
            code = max(have, key=lambda k: (have[k], k))
            cands.append((1.2, rng.random(), PlaceCard(one[code], site)))
        if rockets and (max(rockets.values()) >= 4 or len(rockets) >= 4):
            d = max(rockets, key=lambda k: (rockets[k], k))
            pick = next(c for c in hand if res[c].is_rocket and res[c].damage == d)
            cands.append((1.0, rng.random(), PlaceCard(pick, site)))

    def _dead(self, st: MeteorState, site: Site) -> bool:
        """Whether a project on the seat's own site can never complete (R1), cheaply when plain."""
        res = self.res
        cards = st.sites[site.seat][site.slot]
        heads = [res[c] for c in cards if not res[c].is_energy]
        if len(heads) == 1 and not (st.has_power(site.seat, "fuel_chemist")
                                    or st.has_power(site.seat, "solar_engineer")):
            missing = list(heads[0].cost)
            for c in cards:
                card = res[c]
                if card.is_energy:
                    if card.code not in missing:
                        return True
                    missing.remove(card.code)
            return False
        return classify(st, site) == DEAD
