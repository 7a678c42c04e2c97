"""ISMCTS plays Blast Off! through its determinizer and its guide (``blast_off_prior``): full games
in both timings, legal and deterministic under an iteration budget, and in real time it acts
rather than waiting forever. (Its strength is measured with ``cosmodeck simulate``: a game costs
seconds at a useful budget, too long for a significant test here.)"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import cosmodeck
from cosmodeck.bots import make_bot, make_bots
from cosmodeck.bots.base import Bot
from cosmodeck.bots.heuristic import prior_for
from cosmodeck.bots.ismcts import ISMCTSBot
from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.state import BlastOffState
from cosmodeck.sim.runner import bot_rng, play_game


class _Spy:
    """Wraps a bot; records what it was asked, whether it acted or waited, and its longest wait
    on a decision of its own."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.calls: Counter[str] = Counter()
        self.streak = self.longest = 0

    def reaction_time(self, rng: Rng) -> float:
        return self.bot.reaction_time(rng)

    def act(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
        a = self.bot.act(view, legal, rng)
        assert a is None or a in legal
        mine = view["turn"] == view["seat"] and view["phase"] in ("TURN", "DRAWN", "DECLARE", "CHOOSE", "AUTHOR")
        slap = any(str(x).startswith("slap") for x in legal)
        kind = "own " + view["phase"] if mine else "slap" if slap else view["phase"]
        self.calls[kind + (" wait" if a is None else " act")] += 1
        if mine:
            self.streak = self.streak + 1 if a is None else 0
            self.longest = max(self.longest, self.streak)
        return a


def _play(timing: str, specs: list[str], seed: int, **options: Any) -> tuple[BlastOffState, list[Bot]]:
    g = cosmodeck.load_game("blast-off", timing=timing, **options)
    st = g.new_game(players=len(specs), seed=seed)
    assert isinstance(st, BlastOffState)
    bots = make_bots("blast-off", ",".join(specs), len(specs), g)
    play_game(st, bots, bot_rng(seed))
    return st, bots


def test_ismcts_is_offered_for_blast_off_with_its_prior() -> None:
    bot = make_bot("blast-off", "ismcts:iters=5")
    assert isinstance(bot, ISMCTSBot) and bot.prior is not None and bot.guide is not None
    assert prior_for(cosmodeck.load_game("blast-off")) is not None
    assert isinstance(make_bot("blast-off", "ismcts:iters=5;prior=none"), ISMCTSBot)


@pytest.mark.parametrize("timing", ["steps", "realtime"])
def test_ismcts_plays_full_games(timing: str) -> None:
    for seed, specs in ((1, ["ismcts:iters=8", "random"]), (2, ["heuristic", "ismcts:iters=8", "random"])):
        st, bots = _play(timing, specs, seed, custom_missions=seed == 2)
        assert st.is_over and st.result is not None
        bot = bots[specs.index("ismcts:iters=8")]
        assert isinstance(bot, ISMCTSBot) and bot.total_iterations > 0


@pytest.mark.parametrize("timing", ["steps", "realtime"])
def test_an_iteration_budget_gives_the_same_game(timing: str) -> None:
    records = [_play(timing, ["ismcts:iters=6", "ismcts:iters=6"], 7)[0].record() for _ in range(2)]
    assert records[0] == records[1]


def test_real_time_search_acts_rather_than_waiting_forever() -> None:
    """Real time searches the guide's candidates against waiting (``ISMCTSBot._guided``): on its own
    decisions it acts within a few looks, it throws cards into countdowns, and the game ends."""
    g = cosmodeck.load_game("blast-off")
    calls: Counter[str] = Counter()
    longest = 0
    for seed in range(3):
        st = g.new_game(players=2, seed=seed)
        bots: list[Any] = make_bots("blast-off", "ismcts:iters=20,random", 2, g)
        spy = _Spy(bots[0])
        bots[0] = spy
        play_game(st, bots, bot_rng(seed))
        assert st.is_over and st.now < 600
        calls += spy.calls
        longest = max(longest, spy.longest)
    assert calls["own TURN act"] > calls["own TURN wait"] and longest < 10
    assert calls["slap act"] > calls["slap wait"]


def test_the_guide_ranks_what_a_player_should_do_first() -> None:
    from cosmodeck.bots.heuristic.blast_off_prior import scores
    from tests.blast_off.helpers import stack, steps

    g = steps()
    st = stack(g, 2, hands={0: "O7 G2 W R4", 1: "O1 G5 P6 R9"}, top="O3", cur=0, inforce=("M01",))
    ranked = [str(a) for _, a in sorted(zip(scores(st, 0, st.legal_actions(0)), st.legal_actions(0),
                                            strict=True), key=lambda x: -x[0])]
    assert ranked[0] == "play O7" and ranked.index("play W[G2]") < ranked.index("play W[R9]")
    st.apply(0, "play O7")  # M01: seat 0 owes "Houston"
    legal = st.legal_actions(0)
    sc = dict(zip(map(str, legal), scores(st, 0, legal), strict=True))
    assert max(sc, key=sc.__getitem__) == "announce HOUSTON"
    assert sc["done"] > sc["catch 1"] and sc["done"] > 0 > sc["catch 1 M01"]


@pytest.mark.parametrize("timing", ["steps", "realtime"])
def test_the_guide_policy_plays_legal_games(timing: str) -> None:
    """The playout policy returns a legal action or waits, and playouts with it end."""
    from cosmodeck.bots.heuristic.blast_off_prior import BlastOffGuide
    from cosmodeck.bots.rollout import rollout

    g = cosmodeck.load_game("blast-off", timing=timing, mission_out_of_control=True)
    guide = BlastOffGuide(g)
    rng = Rng(5)
    for seed in range(4):
        st = g.new_game(players=3, seed=seed)
        assert isinstance(st, BlastOffState)
        for _ in range(300):
            if st.is_over:
                break
            seat = min(st.to_act) if st.to_act else -1
            a = guide.policy(st, seat, rng) if seat >= 0 else None
            assert a is None or a in st.legal_actions(seat)
            if a is None:
                legal = st.legal_actions(seat) if seat >= 0 else []
                if legal and not st.rt:
                    st.apply(seat, legal[rng.randbelow(len(legal))])
                else:
                    d = st.next_deadline()
                    st.advance(d if d is not None else st.now + 1.0)
                continue
            st.apply(seat, a, at=st.now if st.rt else None)
        end = st.clone()
        rollout(end, Rng(seed), policy=guide.policy, idle_s=guide.idle_s)
        assert end.is_over


def test_the_search_moves_for_its_own_seat_when_others_act_in_the_same_step() -> None:
    """A steps-timing countdown asks every seat at once; a bot asked before a lower seat has chosen
    must still search (and answer) its own moves, not the lower seat's."""
    g = cosmodeck.load_game("blast-off", timing="steps")
    bot = make_bot("blast-off", "ismcts:iters=20", g)
    asked = 0
    for seed in range(6):
        st = g.new_game(players=3, seed=seed)
        rng = Rng(seed)
        while not st.is_over and asked < 12:
            if len(st.to_act) > 1:
                seat = max(st.to_act)
                legal = st.legal_actions(seat)
                assert bot.act(st.view(seat), legal, Rng(asked)) in legal
                asked += 1
            s = min(st.to_act)
            moves = st.legal_actions(s)
            st.apply(s, moves[rng.randbelow(len(moves))])
    assert asked == 12
