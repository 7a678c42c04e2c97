"""Browser tests: Debian's Chromium driven by Playwright, against a real server on 127.0.0.1.

CI (CI=true) must have Chromium (``make system-deps`` installs it): there a missing browser fails
the tests; elsewhere they are skipped with the reason. Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cosmodeck.server import ServerConfig
from tests.pg import missing
from tests.server.util import serve_in_thread

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives Chromium (runs in one xdist group)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        missing(f"Chromium ({CHROMIUM})")
    from playwright.sync_api import expect, sync_playwright

    # An assertion waits up to 15 s (Playwright's default is 5 s) for what the page shows: a loaded CI
    # machine can be slow to answer; a page that never shows it still fails.
    expect.set_options(timeout=15_000)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web") / "web.db"
    with serve_in_thread(ServerConfig(db=str(db), bot_speed=0.05, grace_s=30.0, room_rate="")) as base:
        yield base


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Any:
    SHOTS.mkdir(parents=True, exist_ok=True)
    name = request.node.name.replace("[", "-").replace("]", "").replace("/", "_")

    def shot(page: Any, label: str) -> None:
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)

    return shot


def new_page(browser: Any, lang: str = "en", anim: str = "fast", simple: bool = False) -> Any:
    """A page in a fresh context; ``simple`` opens rooms in the developers' simple view (raw view and actions)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    ctx.add_init_script(f"localStorage.setItem('cosmodeck.lang', '{lang}');"
                        f"localStorage.setItem('cosmodeck.anim', '{anim}');"
                        + ("localStorage.setItem('cosmodeck.simple', '1');"
                           "localStorage.setItem('cosmodeck.dev', '1');" if simple else ""))
    ctx.set_default_timeout(60_000)  # a loaded 2-core machine can be slow; a real hang still fails
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page
