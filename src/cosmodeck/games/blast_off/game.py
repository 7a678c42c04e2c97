"""The Blast Off! game definition: options, card data, missions, and cached action tables."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from cosmodeck.engine.errors import DataError, IllegalActionError, OptionError
from cosmodeck.engine.game import Game, GameInfo
from cosmodeck.engine.options import TextInput
from cosmodeck.games.blast_off import loader as data_mod
from cosmodeck.games.blast_off.actions import (
    Action,
    Announce,
    Author,
    Catch,
    Declare,
    Gesture,
    Play,
    Slap,
    parse_action,
)
from cosmodeck.games.blast_off.cards import BLAST_OFF, COLOURS, NTYPES, TYPE_KIND, VALUES, WILD_T, eligible_for
from cosmodeck.games.blast_off.loader import BloData
from cosmodeck.games.blast_off.mdl import Mission, parse_mission
from cosmodeck.games.blast_off.named import card_names
from cosmodeck.games.blast_off.options import DEFAULT_MAX_PLAYERS, DEFAULT_POOL, OPTIONS
from cosmodeck.games.blast_off.state import BlastOffState
from cosmodeck.games.datafile import check_text

try:  # the compiled fast path (setup.py builds it); without it the reference rules run
    from cosmodeck.games.blast_off.fast import FastBlastOffState as _FAST_CLASS

    _FAST: type[BlastOffState] | None = _FAST_CLASS
except ImportError:  # pragma: no cover - a build without the compiled extension
    _FAST = None

MAX_AUTHORED = 4000  # characters of one authored mission (BLO-9.2); a pool mission is about 200


class BlastOffGame(Game[BlastOffState]):
    """Blast Off! (Gamewright): UNO-like matching, a real-time countdown race and mission cards."""

    info = GameInfo(id="blast-off", name="Blast Off!", min_players=2, max_players=DEFAULT_MAX_PLAYERS,
                    real_time=True, hidden_info=True, simultaneous=True, cooperative=False,
                    num_distinct_actions=None)
    text_paths = (("texts",), ("missions", "*", "name"), ("missions", "*", "text"))
    # the packaged file before its texts section (English mission names and texts only)
    previous_data = MappingProxyType({"e60fd253b51dbb48": "738a1a6082c8ac88"})
    option_specs = OPTIONS
    data: BloData

    def __init__(self, data: TextInput, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(data, options)
        o = self.options
        mf = o["missions"]
        self.missions: tuple[Mission, ...] = self.data.missions
        self.mission_texts: dict[str, dict[str, str]] = self.data.texts  # other languages than English
        if mf is not None:
            self.missions, self.mission_texts = data_mod.parse_mission_file(mf)
        self.ctype: tuple[int, ...] = self.data.card_types
        self.kind: tuple[int, ...] = tuple(TYPE_KIND[t] for t in self.ctype)
        self.deck_size = len(self.ctype)
        self.card_names: tuple[str, ...] = card_names(self.ctype)  # R9#1: the named state format (named.py)
        self.card_index: dict[str, int] = {name: i for i, name in enumerate(self.card_names)}
        need = self.data.min_cards(o["max_players"])
        if self.deck_size < need:
            raise DataError(data.source, "deck", f"I7: {self.deck_size} cards; {o['max_players']} players need "
                                                 f"at least 6 * {o['max_players']} + 2 = {need}")
        if not any(k != 3 for k in self.kind):
            raise DataError(data.source, "deck", "the deck needs at least one card that is not a Countdown card")
        self.rt = o["timing"] == "realtime"
        # This definition's facts: R17 max_players; turn-based timing (BLO-11) is not real time.
        self.info = replace(type(self).info, max_players=o["max_players"], real_time=self.rt)
        self.assist = o["mission_enforcement"] == "assist"
        self.referee = o["mission_enforcement"] == "referee"
        self.colours: tuple[int, ...] = self.data.colours
        self.values: tuple[int, ...] = VALUES
        self.play_acts: tuple[Play, ...] = tuple(Play(t) for t in range(NTYPES))
        self.wild_plays: tuple[Play, ...] = tuple(Play(WILD_T, c, v) for c in self.colours for v in VALUES)
        self.declares: tuple[Declare, ...] = tuple(Declare(c, v) for c in self.colours for v in VALUES)
        self.slap_acts: tuple[dict[int, Slap], ...] = tuple(
            {v: Slap(t, v) for v in VALUES if eligible_for(t, v)} for t in range(NTYPES))
        self.wild_bo_slaps: tuple[Slap, ...] = tuple(
            Slap(WILD_T, BLAST_OFF, c, v) for c in self.colours for v in VALUES)
        pool = o["custom_mission_pool"] if o["custom_mission_pool"] is not None else list(DEFAULT_POOL)
        self.pool_acts: tuple[Author, ...] = tuple(
            Author(json.dumps({k: v for k, v in m.items() if k != "id"}, sort_keys=True, separators=(",", ":"),
                              ensure_ascii=False)) for m in pool)
        self._tokens: dict[tuple[bool, str, str | None], tuple[Action, ...]] = {}
        self._catches: dict[tuple[int, str | None], Catch] = {}
        self._authored: dict[str, Mission] = {}

    def build_catalogue(self) -> dict[str, Any]:
        """The missions' names and texts per language: the English is the mission's own, the others
        come from the texts section of the file that gave the missions (data file or mission file)."""
        texts: dict[str, dict[str, str]] = {}
        for m in self.missions:
            for part, english in (("name", m.name), ("text", m.text)):
                key = f"mission.{m.id}.{part}"
                texts[key] = {"en": english, **self.mission_texts.get(key, {})}
        return {"texts": texts}

    def parse_data(self, data: TextInput) -> BloData:
        return data_mod.parse(data)

    def data_default_options(self, parsed: Any) -> Mapping[str, Any] | None:
        assert isinstance(parsed, BloData)
        return parsed.default_options

    def check_options(self, options: Mapping[str, Any]) -> None:
        if options["dealer"] != "random" and options["dealer"] >= options["max_players"]:
            raise OptionError(f"option 'dealer': seat {options['dealer']} is beyond max_players")

    def _new_state(self, players: int, seed: int) -> BlastOffState:
        from cosmodeck.games.blast_off.setup import new_state

        if players > self.options["max_players"]:
            raise OptionError(f"Blast Off! takes 2-{self.options['max_players']} players (max_players)", "bad_players")
        return new_state(self, players, seed)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def position(self, hands: Sequence[Sequence[str]], **zones: Any) -> BlastOffState:
        """A validated state from named zones: see ``blast_off.position.position`` and docs/state-formats.md.

        For example ``game.position([["R9", "G7"], ["W", "CD", "O3"]], discard=["G5"], turn=0)``: seat 0
        may then ``play G7`` or ``draw`` (the worked examples of docs/state-formats.md run as tests).
        """
        from cosmodeck.games.blast_off.position import position

        return position(self, hands, **zones)

    def _state_class(self) -> type[BlastOffState]:
        """``FastBlastOffState`` (the compiled fast path, ``fast.pyx``) when ``self.fast`` and it was built;
        the reference ``BlastOffState`` otherwise (``load_game(..., fast=False)`` never uses the fast path)."""
        if self.fast and _FAST is not None:
            return _FAST
        return BlastOffState

    # ---- cached action tables (shared by every state of this game) ------------------------
    def token_acts(self, gesture: bool, token: str, arg: str | None) -> tuple[Action, ...]:
        key = (gesture, token, arg)
        acts = self._tokens.get(key)
        if acts is None:
            if gesture:
                acts = (Gesture(token),)
            elif arg is None:
                acts = (Announce(token),)
            elif arg == "colour":
                acts = tuple(Announce(token, COLOURS[c]) for c in self.colours)
            else:
                acts = tuple(Announce(token, str(n)) for n in range(self.deck_size + 1))
            self._tokens[key] = acts
        return acts

    def catch_act(self, target: int, mission: str | None) -> Catch:
        key = (target, mission)
        a = self._catches.get(key)
        if a is None:
            a = self._catches[key] = Catch(target, mission)
        return a

    def authored(self, text: str) -> Mission:
        """Validate an authored mission (BLO-9.2); ``IllegalActionError(code='bad_mission')``."""
        m = self._authored.get(text)
        if m is None:
            try:
                check_text("author", text, max_chars=MAX_AUTHORED)  # hostile text: bounded size and depth
                obj = json.loads(text)
                if not isinstance(obj, dict):
                    raise DataError("author", "(mission)", "must be a JSON object")
                obj = {k: v for k, v in obj.items() if k != "id"}
                m = parse_mission({"id": "C", **obj}, "author", "mission")
            except ValueError as e:
                raise IllegalActionError(f"not a valid mission: {e}", "bad_mission") from None
            if len(self._authored) >= 64:  # a cache, not a store of whatever players send
                self._authored.clear()
            self._authored[text] = m
        return m
