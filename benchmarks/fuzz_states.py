"""Issue 13's long property run: N single-field mutations of reachable states per game.

Every mutant must either load and play on, or be refused with a coded StateFormatError.

    .venv/bin/python benchmarks/fuzz_states.py --mutations 100000 [--games meteor,blast-off] [--seed 0]

Prints one line per game (loaded, refused by code, failures) and exits 1 if anything else was raised.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conformance.mutate import run

import cosmodeck


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mutations", type=int, default=100_000)
    ap.add_argument("--games", default=",".join(cosmodeck.list_games()))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--snapshots-from", type=int, default=6, help="random games per option set")
    ap.add_argument("--format", type=int, default=2, choices=(1, 2), help="state JSON format version to mutate")
    args = ap.parse_args()
    bad = 0
    for gid in args.games.split(","):
        t0 = time.perf_counter()
        tally = run(gid, args.mutations, seed=args.seed, games=args.snapshots_from,
                    version=args.format)
        out = {"game": gid, "format": args.format, "mutations": tally.total, "loaded": tally.loaded,
               "refused": tally.refused,
               "codes": dict(sorted(tally.codes.items())), "failures": len(tally.failures),
               "seconds": round(time.perf_counter() - t0, 1)}
        print(json.dumps(out), flush=True)
        for f in tally.failures[:20]:
            print("  ", f[:400], flush=True)
        bad += len(tally.failures)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
