"""A site's status and completion kept per cards and cost rules (issue 15) equal the readable definitions."""

from __future__ import annotations

import random
from typing import ClassVar

from cosmodeck.games.meteor import rules_sites
from cosmodeck.games.meteor.actions import Site
from cosmodeck.games.meteor.rules_sites import classify, classify_reference, completion, completion_reference
from tests.meteor.helpers import make

POWERS = (None, "fuel_chemist", "solar_engineer", "spotter")


def test_kept_status_and_completion_equal_the_definitions_for_every_power() -> None:
    st = make(2)
    data = st.data
    pid = {key: p for p, key in data.powers.items()}
    cards = list(data.resource_order)
    energy = [c for c in cards if data.resources[c].is_energy]
    rockets = [c for c in cards if data.resources[c].is_rocket]
    others = [c for c in cards if not data.resources[c].is_energy]
    rng = random.Random(15)
    site = Site(0)
    statuses: set[str] = set()
    kinds: set[str] = set()
    for _ in range(3000):
        n = rng.randint(1, 4)
        ids = [rng.choice(energy) for _ in range(n - 1)] + [rng.choice(others if rng.random() < 0.7 else energy)]
        if rng.random() < 0.2:  # rockets alone (rocket retrofits)
            ids = [rng.choice(rockets) for _ in range(n)]
        rng.shuffle(ids)
        for power in POWERS:  # the same cards under each controller's Power, one after another
            st.powers[0] = None if power is None else pid[power]
            st.sites[0][0] = list(ids)
            st.built[0][0] = False
            got = classify(st, site)
            assert got == classify_reference(st, site), (ids, power)
            kind = completion(st, site)
            assert kind == completion_reference(st, site), (ids, power)
            statuses.add(got)
            kinds.add(kind)
    assert statuses == {"open", "rocket", "tech", "rocket_retrofit", "dead"}
    assert kinds == {"", "tech", "built", "energy", "rocket"}
    st.built[0][0] = True
    assert classify(st, site) == classify_reference(st, site) == "built"
    st.built[0][0] = False
    st.sites[0][0] = []
    assert classify(st, site) == classify_reference(st, site) == "empty"


def test_a_power_changes_the_kept_status() -> None:
    """The key holds the controller's cost rules: Fuel Chemist lets atomic pay a fuel cost (MET-D3)."""
    st = make(2)
    data = st.data
    fuel, atomic = data.code_of("fuel"), data.code_of("atomic")
    rocket = next(c for c in data.resource_order if data.resources[c].is_rocket
                  and fuel in data.resources[c].cost and atomic not in data.resources[c].cost)
    wrong = next(c for c in data.resource_order if data.resources[c].is_energy and data.resources[c].code == atomic)
    st.sites[0][0] = [rocket, wrong]
    st.powers[0] = None
    assert classify(st, Site(0)) == "dead"
    st.powers[0] = next(p for p, key in data.powers.items() if key == "fuel_chemist")
    assert classify(st, Site(0)) == classify_reference(st, Site(0)) == "rocket"
    assert rules_sites.cost_rules(st, 0).status and rules_sites._rules_of(data)[0].status  # a table per Power


def test_cards_share_a_canonical_id_only_when_alike_in_what_the_status_reads() -> None:
    """Kind, code, damage and cost: a data file may print two rockets of one cost and different damages."""
    from cosmodeck.games.meteor.cards import ResourceCard

    class Data:
        resources: ClassVar[dict[str, ResourceCard]] = {
            "R1#1": ResourceCard("R1#1", "R1", "rocket", damage=2, cost=("F", "F")),
            "R1#2": ResourceCard("R1#2", "R1", "rocket", damage=2, cost=("F", "F")),
            "R2#1": ResourceCard("R2#1", "R2", "rocket", damage=3, cost=("F", "F")),
            "R3#1": ResourceCard("R3#1", "R3", "rocket", damage=2, cost=("A", "F")),
            "T1#1": ResourceCard("T1#1", "T1", "tech", cost=("F", "F")),
            "R0#1": ResourceCard("R0#1", "R0", "rocket", cost=("F", "F")),  # a tech's fields, but a rocket
            "F#1": ResourceCard("F#1", "F", "energy", code="F", key="fuel"),
            "F#2": ResourceCard("F#2", "F", "energy", code="F", key="fuel"),
            "A#1": ResourceCard("A#1", "A", "energy", code="A", key="atomic"),
        }

        def code_of(self, key: str) -> str:
            return {"fuel": "F", "atomic": "A"}.get(key, "")

    canon = rules_sites._rules_of(Data())[0].canon  # type: ignore[arg-type]
    assert canon == {"R1#1": "R1#1", "R1#2": "R1#1", "R2#1": "R2#1", "R3#1": "R3#1", "T1#1": "T1#1",
                     "R0#1": "R0#1", "F#1": "F#1", "F#2": "F#1", "A#1": "A#1"}
