"""``cosmodeck serve`` with the toy game registered (tests start it as a subprocess to kill -9 it)."""

from __future__ import annotations

import sys

from cosmodeck.cli.main import main
from tests.server.toy_game import register_toy

if __name__ == "__main__":
    register_toy()
    sys.exit(main(["serve", *sys.argv[1:]]))
