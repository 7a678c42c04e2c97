"""The three games as OpenSpiel games, so OpenSpiel's algorithms (ISMCTS, CFR family, NFSP...) run on them.

Importing this module registers ``cosmodeck_shooting_star``, ``cosmodeck_blast_off`` and
``cosmodeck_meteor`` with ``pyspiel.register_game`` (OpenSpiel is an optional extra:
``pip install 'cosmodeck[openspiel]'``)::

    import pyspiel
    import cosmodeck.rl.openspiel
    game = pyspiel.load_game("cosmodeck_shooting_star", {"players": 2})

Each game is the RL ``Table`` (``cosmodeck.rl.table``) seen through OpenSpiel's sequential API:

- **Chance**: every random thing in a game (the deal, draw piles, the Meteor deck, the first player)
  follows from the seed the engine keeps in its state. The first node is a chance node that draws
  that seed uniformly among ``DEALS`` (65,536) outcomes; after it the game is deterministic. So the
  OpenSpiel game is the cosmodeck game with its deal drawn from 65,536 seeds.
- **Players and moves**: a decision is the Table's: one seat at a time (AEC order; simultaneous
  placements in Shooting Star are taken one seat after another, hidden from the others by the
  engine; real-time games tick with the catalog's ``wait``). Actions are the environment's action
  catalog (``action_to_string`` gives the notation). Blast Off! runs its turn-based ``steps`` timing.
- **Observations**: the observation tensor is the RL encoder's vector of ``view(player)``; the
  observation string is that view as compact JSON (so neither ever holds what the player may not see).
  The information state adds the player's own past actions (perfect recall of one's own moves):
  its string is the view and that history, its tensor the observation vector.
- **Returns**: at the end, +1 a sole win, 0 a shared win, -1 a loss (Meteor: +1 / -1 for the whole
  team, an ``IDENTICAL`` utility); an episode cut at ``max_steps`` returns 0 to everyone.
- ``resample_from_infostate(player, sampler)`` draws a full state consistent with ``player``'s view
  with the bots' determinizers (``cosmodeck.bots.determinize``), so OpenSpiel's ISMCTS bot searches it.

Parameters: ``players`` (default 2) and ``max_steps`` (decisions before the episode is cut).

``BotPriorEvaluator`` is an OpenSpiel MCTS evaluator (random rollouts for values) whose prior puts
weight on the move a cosmodeck bot (default: the heuristic) would make from the player's view, for
OpenSpiel's ISMCTS with ``child_selection_policy=PUCT``: the AlphaZero arrangement with a bot where
a network would be. A Shooting Star decision has about 400 legal placements, too many for a uniform
prior within a few hundred simulations.
"""

from __future__ import annotations

import json
from typing import Any

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the optional extra
    raise ImportError("cosmodeck.rl.openspiel needs OpenSpiel: pip install 'cosmodeck[openspiel]'") from e
import numpy as np
from open_spiel.python.algorithms import mcts

from cosmodeck.bots import make_bot
from cosmodeck.bots.base import LazyView
from cosmodeck.bots.determinize import determinize
from cosmodeck.engine.rng import Rng, derive_seed
from cosmodeck.rl.table import DEFAULT_MAX_STEPS, Table

DEALS = 1 << 16
GAMES = {"shooting-star": "Shooting Star", "blast-off": "Blast Off!", "meteor": "Meteor"}
PLAYERS = {"shooting-star": (2, 5), "blast-off": (2, 6), "meteor": (1, 5)}
_DEAL_SALT = 0x05B1E1


def short_name(game_id: str) -> str:
    return "cosmodeck_" + game_id.replace("-", "_")


def _game_type(game_id: str) -> Any:
    lo, hi = PLAYERS[game_id]
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"cosmodeck {GAMES[game_id]}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.IDENTICAL if game_id == "meteor"
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 2, "max_steps": DEFAULT_MAX_STEPS},
    )


class CosmodeckSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One cosmodeck game as an OpenSpiel game (see the module docstring)."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 2))
        max_steps = int(params.get("max_steps", DEFAULT_MAX_STEPS))
        lo, hi = PLAYERS[self.game_id]
        if not lo <= players <= hi:
            raise ValueError(f"{self.game_id}: players must be in {lo}..{hi}, not {players}")
        options: dict[str, Any] = {"max_steps": max_steps}
        self.probe = Table(self.game_id, players, options)
        self.options = options
        enc = self.probe.encoder
        info = pyspiel.GameInfo(
            num_distinct_actions=enc.num_actions,
            max_chance_outcomes=DEALS,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=max_steps,
        )
        super().__init__(_game_type(self.game_id), info, {"players": players, "max_steps": max_steps})

    def new_initial_state(self) -> CosmodeckSpielState:
        return CosmodeckSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is None or iig_obs_type.perfect_recall)
        return ViewObserver(self.probe.encoder.obs_size, perfect_recall)


class _Box:
    """The table inside an OpenSpiel state; OpenSpiel clones states by deep-copying their attributes."""

    def __init__(self, table: Table, own: list[list[int]]) -> None:
        self.table = table
        self.own = own  # each player's own past actions

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.table.copy(), [list(a) for a in self.own])


class CosmodeckSpielState(pyspiel.State):  # type: ignore[misc]
    """A position: before the deal (a chance node), then the Table's decisions."""

    def __init__(self, game: CosmodeckSpielGame, box: _Box | None = None) -> None:
        super().__init__(game)
        self.box = box or _Box(Table(game.game_id, game.num_players(), game.options),
                               [[] for _ in range(game.num_players())])
        self.dealt = box is not None

    @property
    def table(self) -> Table:
        return self.box.table

    def current_player(self) -> int:
        if not self.dealt:
            return int(pyspiel.PlayerId.CHANCE)
        cur = self.table.current
        return int(pyspiel.PlayerId.TERMINAL) if cur is None else cur

    def _legal_actions(self, player: int) -> list[int]:
        return [int(i) for i in np.flatnonzero(self.table.mask(player))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / DEALS
        return [(i, p) for i in range(DEALS)]

    def _apply_action(self, action: int) -> None:
        if not self.dealt:
            self.table.reset(derive_seed(_DEAL_SALT, int(action)))
            self.dealt = True
            return
        seat = self.table.current
        if seat is None or not self.table.act_index(seat, int(action)):
            raise ValueError(f"action {action} is not legal now")
        self.box.own[seat].append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self.table.encoder.actions[int(action)]

    def is_terminal(self) -> bool:
        return self.dealt and self.table.current is None

    def returns(self) -> list[float]:
        n = self.table.players
        if not self.is_terminal():
            return [0.0] * n
        return [self.table.reward(s) for s in range(n)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CosmodeckSpielState:
        """A state ``player_id`` cannot tell from this one, drawn by the game's determinizer."""
        if not self.dealt:
            return self.clone()  # type: ignore[no-any-return]
        table = self.table
        seed = int(float(probability_sampler()) * (1 << 62))
        det = determinize(table.game, table.state.view(player_id), player_id, Rng(seed))
        return CosmodeckSpielState(self.get_game(), _Box(table.copy(det), [list(a) for a in self.box.own]))

    def __str__(self) -> str:
        if not self.dealt:
            return "before the deal"
        return json.dumps(self.table.state.view(None), sort_keys=True, separators=(",", ":"))


class ViewObserver:
    """OpenSpiel's observer: tensors from the RL encoder, strings from the player's view (no hidden card)."""

    def __init__(self, size: int, perfect_recall: bool) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = perfect_recall

    def set_from(self, state: CosmodeckSpielState, player: int) -> None:
        if not state.dealt:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = state.table.observation(player)

    def string_from(self, state: CosmodeckSpielState, player: int) -> str:
        if not state.dealt:
            return f"p{player} before the deal"
        view = json.dumps(state.table.state.view(player), sort_keys=True, separators=(",", ":"))
        if not self.perfect_recall:
            return view
        return view + " mine:" + ",".join(map(str, state.box.own[player]))


class BotPriorEvaluator(mcts.RandomRolloutEvaluator):  # type: ignore[misc]
    """Random-rollout values and a prior with ``weight`` on the bot's move (see the module docstring)."""

    def __init__(self, game: CosmodeckSpielGame, bot: str = "heuristic", weight: float = 0.5,
                 n_rollouts: int = 1, random_state: np.random.RandomState | None = None) -> None:
        super().__init__(n_rollouts=n_rollouts, random_state=random_state)
        if not 0.0 <= weight <= 1.0:
            raise ValueError(f"weight must be in [0, 1], not {weight}")
        self.bot = make_bot(game.game_id, bot, game.probe.game)
        self.weight = weight
        self.rng = Rng(0)

    def prior(self, state: CosmodeckSpielState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        player = state.current_player()
        legal = state.legal_actions(player)
        table = state.table
        decision = table.decision(player)
        choice = None
        if decision is not None:
            engine_legal = [a for a in decision.legal.values() if a is not None]
            move = self.bot.act(LazyView(lambda: table.state.view(player)), engine_legal, self.rng)
            choice = next((i for i, a in decision.legal.items() if a is move or (move is not None and a == move)),
                          None)
        if choice is None or len(legal) == 1:
            return [(a, 1.0 / len(legal)) for a in legal]
        rest = (1.0 - self.weight) / len(legal)
        return [(a, rest + (self.weight if a == choice else 0.0)) for a in legal]


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for game_id in GAMES:
        name = short_name(game_id)
        if name in registered:
            continue
        cls = type(f"CosmodeckSpielGame_{game_id.replace('-', '_')}", (CosmodeckSpielGame,), {"game_id": game_id})
        pyspiel.register_game(_game_type(game_id), cls)


_register()
