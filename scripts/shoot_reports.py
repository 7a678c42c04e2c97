"""Screenshots of `simulate`/`compare` HTML report folders in Chromium at 1280 px wide (docs/LAB.md,
"Reports read as a designer would"): one full-page PNG per report, and, with --clip H, only its top H
pixels (the small PNGs under docs/screenshots/). Also prints what a designer should not read in the
page text: Python True/False/None, snake_case words outside the options line, and tables wider than the page.

    .venv/bin/python scripts/shoot_reports.py OUT REPORT_DIR [REPORT_DIR ...] [--clip 900]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.conftest import ARGS, CHROMIUM  # noqa: E402

PYTHONISH = re.compile(r"\b(True|False|None)\b")


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    clip = None
    if "--clip" in argv:
        i = argv.index("--clip")
        clip = int(argv[i + 1])
        del argv[i:i + 2]
    out, reports = Path(argv[0]), [Path(a) for a in argv[1:]]
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        for rep in reports:
            page.goto((rep / "index.html").resolve().as_uri())
            text = page.inner_text("body")
            wide = page.evaluate("""() => [...document.querySelectorAll('table')]
                .filter(t => t.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
                .map(t => t.rows[0].innerText.slice(0, 60))""")
            print(f"{rep.name}: {len(text):,} characters; Python words: {sorted(set(PYTHONISH.findall(text)))}; "
                  f"tables wider than the page: {wide}")
            shot = out / f"{rep.name}.png"
            if clip:
                page.screenshot(path=str(shot), clip={"x": 0, "y": 0, "width": 1280, "height": clip})
            else:
                page.screenshot(path=str(shot), full_page=True)
            print(f"  {shot}")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
