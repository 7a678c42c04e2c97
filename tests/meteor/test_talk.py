"""Talk as state: MET-7 and MET-D1 (signals, emotes, chat, show_hand; Radio Operator / Silence)."""

from __future__ import annotations

import pytest

from cosmodeck.engine import IllegalActionError
from cosmodeck.games.meteor.actions import Chat, Emote, Signal
from tests.meteor.helpers import make


def test_MET_7_1_MET_D1_only_signals_and_emotes_before_the_satellite() -> None:
    st = make(3, field=["M01"])
    talk = st.view(1)["talk"]
    assert talk == {"chat": False, "signals": ["pass", "launch", "time_out"],
                    "emotes": ["cheer", "groan", "gasp", "hurry", "thumbs_up", "thumbs_down", "point"],
                    "show_hand": False}
    for text in ("signal pass", "signal launch", "signal time_out", "emote gasp", "emote point m1",
                 "emote point s2"):
        events = st.apply(1, text)
        assert events[-1].type in ("signal", "emote") and events[-1].public
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, "chat we need fuel")
    assert err.value.code == "no_talking"
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, "emote point m7")
    assert err.value.code == "no_such_target"
    legal = st.legal_actions(1)
    assert not any(isinstance(a, Chat) for a in legal)
    assert sum(isinstance(a, Signal) for a in legal) == 3 and any(isinstance(a, Emote) for a in legal)


def test_MET_7_2_after_the_satellite_chat_but_never_show_hands() -> None:
    st = make(3, field=["M01"], techs=["T01"])
    assert st.view(2)["talk"]["chat"] and not st.view(2)["talk"]["show_hand"]
    events = st.apply(2, "chat I have two Fuel")
    assert events[-1].data == {"seat": 2, "text": "I have two Fuel"}
    with pytest.raises(IllegalActionError) as err:
        st.apply(2, "show_hand")
    assert err.value.code == "no_showing"


def test_MET_7_3_R14_first_game_talk_freely_and_show_hands() -> None:
    st = make(3, field=["M01"], hands={1: ["F", "R10"]}, first_game=True)
    assert st.view(1)["talk"]["chat"] and st.view(1)["talk"]["show_hand"]
    st.apply(1, "show_hand")
    assert sorted(st.view(0)["hands"][1]["known"]) == ["F#1", "R10#1"]
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, "show_hand")
    assert err.value.code == "nothing_to_show"


def test_MET_D1_radio_operator_and_radio_silence_override_for_their_holder() -> None:
    st = make(3, field=["M01"], powers={0: "P01"}, challenges={1: "C01"}, difficulty="advanced")
    st.apply(0, "chat radio check")
    with pytest.raises(IllegalActionError) as err:
        st.apply(2, "chat me too")
    assert err.value.code == "no_talking"
    assert [t["chat"] for t in st.view(None)["talk_by_seat"]] == [True, False, False]
    st.techs.append("T01#1")
    st.deck.remove("T01#1")
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, "chat finally")
    assert err.value.code == "radio_silence"
    st.apply(1, "emote hurry")  # emotes and signals stay allowed
    st.apply(2, "chat finally")


def test_MET_D1_spectators_may_not_talk_and_chat_text_is_one_line() -> None:
    st = make(2, field=["M01"], techs=["T01"])
    assert st.view(None)["talk"] == {"chat": False, "signals": [], "emotes": [], "show_hand": False}
    for bad in ("chat ", "chat  padded", "chat two\nlines", "chat " + "x" * 201):
        with pytest.raises(ValueError):
            st.apply(0, bad)
