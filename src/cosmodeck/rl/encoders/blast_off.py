"""Blast Off! encoder: observations follow the BLO-13 view, the catalog every action notation.

By default the environments run Blast Off with ``timing="steps"`` (BLO-11, the turn-based
abstraction for simulation and RL): a countdown is one simultaneous ``COUNTDOWN`` step per called
value and missions are answered in ``RESPONSE`` steps, so no clock is involved. With
``timing="realtime"`` the environments tick instead (``step_s``) and the catalog gains ``wait``.

Seats in the observation are relative to the observer; seats in actions (``choose``, ``catch``)
are absolute, as in the notation. Catalog, in order: ``play CARD`` per card type but the Wild,
``play W[FACE]`` per colour x value, ``draw``, ``pass``, ``keep``, ``done``, ``slap CARD VALUE``
per eligible pair (real time: also ``slap W[FACE] BO``), ``declare FACE``, ``choose SEAT``,
every ``announce``/``gesture`` of the data's (and the custom pool's) missions (a count from 0 to
the deck size), ``catch SEAT`` and ``catch SEAT MISSION`` for the data's missions, the pool's
``author`` texts, and, in real time, ``wait``. Catches naming an authored mission (``C1``...)
have no entry: ``catch SEAT`` does the same job.

Who owes what, and for how long, comes from the view's public log (``recent``, BLO-12.10),
replayed with the bots' ``PublicLog`` (``bots/blast_off_log``): every seat's open obligations and
catchable violations by mission, with the time (real time: seconds / the option's window) or
RESPONSE steps left. The replay only ever derives what the engine holds (it may miss what arose
before the log's first event), so an agent that catches on these features never catches falsely.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cosmodeck.bots.blast_off_log import PublicLog, replay_view
from cosmodeck.engine.game import Game
from cosmodeck.games.blast_off.actions import DONE, DRAW, KEEP, PASS, parse_action
from cosmodeck.games.blast_off.cards import COLOURS, NTYPES, TYPE_BY_NAME, TYPE_NAME, VALUES, WILD_T, value_text
from cosmodeck.games.blast_off.game import BlastOffGame
from cosmodeck.games.blast_off.phases import PHASE_NAMES
from cosmodeck.rl.encoders.base import Encoder, Feature, Vector, Writer, ratio, rel
from cosmodeck.rl.encoders.blast_off_direct import BlastOffDirect

if TYPE_CHECKING:
    from cosmodeck.bots.blast_off_log.replay_fast import FastPublicLog

WAIT = "wait"
VALUE_TEXTS = tuple(value_text(v) for v in VALUES)  # "1".."10", "BO"
HAND_SCALE = 20.0
DECISIONS = ("declare", "choose", "author", "drawn")


class BlastOffEncoder(Encoder):
    game_id = "blast-off"
    direct: BlastOffDirect
    #: the compiled writer's ``write_rows`` (a batch's observation and mask rows in one call, ``vector_step``;
    #: turn-based), ``None`` without the extension or in real time
    rows_writer: Any = None

    def __init__(self, game: Game[Any], players: int) -> None:
        super().__init__()
        assert isinstance(game, BlastOffGame)
        self.players = n = players
        self.rt = game.rt
        self.game = game
        self.obligation_scale = float(game.options["obligation_s"]) if game.rt else 1.0
        self.window_scale = (float(game.options["catch_window_s"]) if game.rt
                             else float(game.options["catch_window_steps"]))
        self.deck_size = game.deck_size
        copies = Counter(game.ctype)
        self.copies = tuple(max(1, copies.get(t, 0)) for t in range(NTYPES))
        pool_missions = [game.authored(a.text) for a in game.pool_acts] if game.options["custom_missions"] else []
        self.mission_ids: tuple[str, ...] = tuple(m.id for m in game.missions)
        self.mission_index = {m: i for i, m in enumerate(self.mission_ids)}
        self.colour_index = {c: i for i, c in enumerate(COLOURS)}
        self.value_index = {v: i for i, v in enumerate(VALUE_TEXTS)}
        nm = len(self.mission_ids)
        nv = len(VALUES)
        self.features = (
            Feature("phase", len(PHASE_NAMES), "one-hot phase: " + ", ".join(PHASE_NAMES)),
            Feature("turn", n, "one-hot relative seat whose turn it is"),
            Feature("dealer", n, "one-hot relative seat of the dealer"),
            Feature("direction", 1, "1 if play goes left (seat + 1), 0 if reversed"),
            Feature("hand", NTYPES, "my hand: copies per card type / copies of that type in the deck"),
            Feature("hand_sizes", n, "per relative seat: cards in hand / 20"),
            Feature("active", n, "per relative seat: 1 while holding cards"),
            Feature("draw_pile", 1, "draw pile size / deck size"),
            Feature("discard", NTYPES, "discard pile: copies per card type / copies in the deck"),
            Feature("top_card", NTYPES, "one-hot card type on top of the discard pile"),
            Feature("top_colour", 4, "one-hot colour of the top face (none: all zero)"),
            Feature("top_value", nv, "one-hot value 1..10, BO of the top face (none: all zero)"),
            Feature("missions_in_force", nm + 1, "data missions in force, then 1 if an authored one is"),
            Feature("missions_discarded", nm + 1, "data missions discarded, then authored ones / 4"),
            Feature("mission_deck", 1, "mission deck size / missions"),
            Feature("skip_marks", n, "per relative seat: skip marks / 3"),
            Feature("placings", n, "per relative seat: 1 once gone out (play for places)"),
            Feature("passes", 1, "consecutive passes / players (R10 stalemate count)"),
            Feature("countdown", 1, "1 during a countdown"),
            Feature("cd_rocket", n, "one-hot relative seat that played the Countdown card"),
            Feature("cd_called", nv, "one-hot value being called"),
            Feature("cd_filled", nv, "values whose slot is filled"),
            Feature("cd_skipped", nv, "values skipped"),
            Feature("cd_last", n, "one-hot relative seat of the last countdown card"),
            Feature("cd_acted", n, "relative seats that already answered this value"),
            Feature("obligations", nm + 1, "my open obligations by data mission (then: an authored one)"),
            Feature("obligation_count", 1, "expected count of my COUNT-style obligation / deck size"),
            Feature("decision", len(DECISIONS), "one-hot pending decision: declare, choose, author, drawn"),
            Feature("drawn", NTYPES, "one-hot card type I just drew (DRAWN step)"),
            Feature("pending", 1, "my submissions in this step / 4"),
            Feature("responded", n, "relative seats done with this RESPONSE step"),
            Feature("penalties", n * 2, "per relative seat: times caught (or fined by the referee), false "
                                        "catches made (each / 4)"),
            Feature("owed", n * (nm + 1), "per relative seat, by data mission (then: an authored one): 1 if the "
                                          "public log shows it owes an obligation"),
            Feature("owed_left", n, "per relative seat: time left before its earliest obligation falls due "
                                    "(real time: seconds / obligation_s; steps: 1 if due in this RESPONSE step)"),
            Feature("violations", n * (nm + 1), "per relative seat, by data mission (then: an authored one): 1 if "
                                                "it has a violation that a catch would find open now"),
            Feature("violation_left", n, "per relative seat: how long its oldest catchable violation stays open "
                                         "(real time: seconds / catch_window_s; steps: steps / catch_window_steps)"),
            Feature("over", 1, "1 once the game is over"),
        )
        acts: list[str] = [f"play {TYPE_NAME[t]}" for t in range(NTYPES) if t != WILD_T]
        acts += [str(a) for a in game.wild_plays]
        acts += [str(DRAW), str(PASS), str(KEEP), str(DONE)]
        acts += [str(a) for t in range(NTYPES) for a in game.slap_acts[t].values()]
        if self.rt:
            acts += [str(a) for a in game.wild_bo_slaps]
        acts += [str(a) for a in game.declares]
        acts += [f"choose {s}" for s in range(n)]
        specs: dict[tuple[bool, str, str | None], None] = {}
        for m in (*game.missions, *pool_missions):
            if m.kind == "obligation":
                specs[(m.gesture, m.token, m.arg)] = None
        for spec in specs:
            acts += [str(a) for a in game.token_acts(*spec)]
        for s in range(n):
            acts.append(f"catch {s}")
            acts += [f"catch {s} {m}" for m in self.mission_ids]
        if game.options["custom_missions"]:
            acts += [str(a) for a in game.pool_acts]
        if self.rt:
            acts.append(WAIT)
        self.actions = tuple(dict.fromkeys(acts))
        self.noop = self.actions.index(WAIT) if self.rt else None
        for a in self.actions:
            if a != WAIT:
                assert str(parse_action(a)) == a, a
        self._finish()
        self.direct = BlastOffDirect(self)
        compiled = self.direct.compiled
        if compiled is not None:  # the compiled writer's methods as the table's hooks (``Encoder.row_writer``)
            self.row_writer = compiled.write
            if not self.rt:  # the mask and decoding hooks are turn-based (real time adds ``wait``)
                self.mask_writer = compiled.fill_mask
                self.action_at = compiled.action_of
                self.observer = compiled.observe
                self.actor = compiled.act
                self.rows_writer = compiled.write_rows

    def encode(self, view: Mapping[str, Any]) -> Vector:
        n = self.players
        me = int(view["seat"])
        w = Writer(self.features)
        w.one_hot("phase", PHASE_NAMES.index(view["phase"]))
        w.one_hot("turn", rel(int(view["turn"]), me, n))
        w.one_hot("dealer", rel(int(view["dealer"]), me, n))
        w.values("direction", [1.0 if view["dir"] == 1 else 0.0])
        w.values("hand", self._counts(view["hand"] or []))
        w.values("hand_sizes", self._per_seat(me, [ratio(c, HAND_SCALE) for c in view["hand_sizes"]]))
        w.values("active", self._per_seat(me, [1.0 if a else 0.0 for a in view["active"]]))
        w.values("draw_pile", [ratio(int(view["draw_pile"]), self.deck_size)])
        w.values("discard", self._counts([d["card"] for d in view["discard"]]))
        top = view["top"]
        w.one_hot("top_card", TYPE_BY_NAME.get(top["card"]))
        w.one_hot("top_colour", self.colour_index.get(top["colour"]) if top["colour"] else None)
        tv = top["value"]
        w.one_hot("top_value", None if tv is None else self.value_index["BO" if tv == "BLAST_OFF" else str(tv)])
        w.values("missions_in_force", self._missions(view["missions_in_force"], 1.0))
        w.values("missions_discarded", self._missions(view["missions_discarded"], 4.0))
        w.values("mission_deck", [ratio(int(view["mission_deck"]), max(1, len(self.mission_ids)))])
        w.values("skip_marks", self._per_seat(me, [ratio(k, 3) for k in view["skip_marks"]]))
        w.multi_hot("placings", (rel(s, me, n) for s in view["placings"]))
        w.values("passes", [ratio(int(view["passes"]), n)])
        cd = view["countdown"]
        w.values("countdown", [1.0 if cd is not None else 0.0])
        cd = cd or {}
        w.one_hot("cd_rocket", rel(int(cd["rocket"]), me, n) if cd else None)
        w.one_hot("cd_called", self.value_index.get(cd.get("called") or ""))
        w.multi_hot("cd_filled", (self.value_index[v] for v in cd.get("slots", {})))
        w.multi_hot("cd_skipped", (self.value_index[v] for v in cd.get("skipped", [])))
        last = cd.get("last", -1)
        w.one_hot("cd_last", rel(int(last), me, n) if cd and last is not None and last >= 0 else None)
        w.multi_hot("cd_acted", (rel(int(s), me, n) for s in cd.get("acted", [])))
        obls = view["obligations"]
        nm = len(self.mission_ids)
        w.multi_hot("obligations", (self.mission_index.get(o["mission"], nm) for o in obls))
        counts = [int(o["expect"]) for o in obls if isinstance(o.get("expect"), str) and o["expect"].isdigit()]
        w.values("obligation_count", [ratio(counts[0], self.deck_size) if counts else 0.0])
        dec = view["decision"]
        w.one_hot("decision", DECISIONS.index(dec["kind"]) if dec and dec["kind"] in DECISIONS else None)
        w.one_hot("drawn", TYPE_BY_NAME.get(view["drawn"]) if view["drawn"] else None)
        pend = view["pending"]
        w.values("pending", [ratio(len(pend) if isinstance(pend, list) else (1 if pend else 0), 4)])
        w.multi_hot("responded", (rel(int(s), me, n) for s in view["responded"]))
        pen = [0, 0] * n
        for p in view["penalties"]:
            pen[rel(int(p["seat"]), me, n) * 2 + (1 if p["kind"] == "false_catch" else 0)] += 1
        w.values("penalties", (ratio(x, 4) for x in pen))
        self._public_log(w, view, me)
        w.values("over", [1.0 if view["over"] else 0.0])
        return w.done()

    def _public_log(self, w: Writer, view: Mapping[str, Any], me: int) -> None:
        """``owed``, ``owed_left``, ``violations``, ``violation_left`` from the replayed public log."""
        n = self.players
        nm = len(self.mission_ids)
        if not view["over"] and view["recent"]:
            owed, owed_left, viol, viol_left = self.log_features(replay_view(self.game, view), float(view["now"]), me)
        else:
            owed, owed_left, viol, viol_left = [0.0] * (n * (nm + 1)), [0.0] * n, [0.0] * (n * (nm + 1)), [0.0] * n
        w.values("owed", owed)
        w.values("owed_left", owed_left)
        w.values("violations", viol)
        w.values("violation_left", viol_left)

    def log_features(self, log: PublicLog | FastPublicLog, now: float, me: int
                     ) -> tuple[list[float], list[float], list[float], list[float]]:
        """(owed, owed_left, violations, violation_left) of a replayed public log (or its compiled copy, which
        has the same ``obls``, ``viols``, ``sizes``, ``resp``, ``is_open`` and ``catchable``), seen from ``me``."""
        n = self.players
        nm = len(self.mission_ids)
        owed = [0.0] * (n * (nm + 1))
        owed_left = [0.0] * n
        viol = [0.0] * (n * (nm + 1))
        viol_left = [0.0] * n
        for o in log.obls:
            r = rel(o.seat, me, n)
            owed[r * (nm + 1) + self.mission_index.get(o.mission, nm)] = 1.0
            left = (ratio(o.deadline - now, self.obligation_scale) if self.rt
                    else (1.0 if o.due <= log.resp else 0.0))
            owed_left[r] = max(owed_left[r], left)
        open_now = ([v for v in log.viols if not v.caught and log.sizes[v.seat] and log.is_open(v, now)]
                    if self.rt else log.catchable(step=log.resp))
        for v in open_now:
            r = rel(v.seat, me, n)
            viol[r * (nm + 1) + self.mission_index.get(v.mission, nm)] = 1.0
            left = ratio(v.end - now, self.window_scale) if self.rt else ratio(v.end - log.resp + 1,
                                                                                self.window_scale)
            viol_left[r] = max(viol_left[r], left)
        return owed, owed_left, viol, viol_left

    def _counts(self, names: list[str]) -> list[float]:
        c = Counter(TYPE_BY_NAME[x] for x in names)
        return [ratio(c.get(t, 0), self.copies[t]) for t in range(NTYPES)]

    def _per_seat(self, me: int, values: list[float]) -> list[float]:
        n = self.players
        return [values[(me + r) % n] for r in range(n)]

    def _missions(self, missions: list[Mapping[str, Any]], authored_scale: float) -> list[float]:
        nm = len(self.mission_ids)
        out = [0.0] * (nm + 1)
        authored = 0
        for m in missions:
            i = self.mission_index.get(m["id"])
            if i is None:
                authored += 1
            else:
                out[i] = 1.0
        out[nm] = ratio(authored, authored_scale)
        return out
