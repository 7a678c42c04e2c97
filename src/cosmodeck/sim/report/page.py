"""The pieces of a report page: matplotlib figures, readable numbers, tables, CSV files, the HTML."""

from __future__ import annotations

import csv
import html
import json
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

Draw = Callable[[Any], None]

STYLE = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
         "table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:14px;max-width:100%}"
         "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right;vertical-align:top}"
         "th{background:#f3f3f3}td.l,th.l{text-align:left}td{white-space:nowrap}td.l{white-space:normal;"
         "overflow-wrap:anywhere}"
         ".scroll{max-height:32em;overflow:auto;margin-bottom:1.5em}"
         "img{max-width:100%;border:1px solid #eee;margin:.5em 0}tr.sig td{font-weight:bold;color:#b00}"
         "figure{margin:1em 0}figcaption{color:#555;font-size:13px}li{margin:.2em 0}")


def plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    return pyplot


def save(directory: Path, stem: str, draw: Draw, size: tuple[float, float] = (7.0, 3.8)) -> str:
    """Draw one figure into ``directory/stem.png``; returns the file name."""
    pyplot = plt()
    fig, ax = pyplot.subplots(figsize=size, dpi=100)
    try:
        draw(ax)
        fig.tight_layout()
        name = f"{stem}.png"
        fig.savefig(directory / name)
    finally:
        pyplot.close(fig)
    return name


def bars_ci(ax: Any, labels: Sequence[str], values: Sequence[float], cis: Sequence[Sequence[float]],
            ylabel: str, title: str, ref: float | None = None) -> None:
    lo = [max(0.0, v - c[0]) for v, c in zip(values, cis, strict=True)]
    hi = [max(0.0, c[1] - v) for v, c in zip(values, cis, strict=True)]
    xs = list(range(len(labels)))
    ax.bar(xs, values, yerr=[lo, hi], capsize=4, color="#4c72b0")
    ax.set_xticks(xs)
    turn = len(labels) > 6
    ax.set_xticklabels(labels, rotation=30 if turn else 0, ha="right" if turn else "center")
    if ref is not None:
        ax.axhline(ref, color="grey", linestyle="--", linewidth=1)
    ax.set_ylabel(ylabel)
    ax.set_title(title)


def hist_bars(hist: dict[str, list[float]], xlabel: str, title: str, color: str = "#55a868") -> Draw:
    def draw(ax: Any) -> None:
        edges, counts = hist["edges"], hist["counts"]
        if counts:
            ax.bar(edges[:-1], counts, width=[b - a for a, b in pairwise(edges)], align="edge", color=color,
                   edgecolor="white")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games")
        ax.set_title(title)

    return draw


def forest(rows: Sequence[dict[str, Any]], label: Callable[[dict[str, Any]], str], xlabel: str,
           title: str) -> Draw:
    """Each row's difference with its 95% interval, one line each; red when significant (Holm)."""

    def draw(ax: Any) -> None:
        ys = list(range(len(rows)))[::-1]
        for y, r in zip(ys, rows, strict=True):
            color = "#c44e52" if r.get("significant_holm") else "#4c72b0"
            lo, hi = r["ci95"]
            ax.errorbar([r["diff"]], [y], xerr=[[r["diff"] - lo], [hi - r["diff"]]], fmt="o", color=color,
                        capsize=3)
        ax.axvline(0, color="grey", linestyle="--", linewidth=1)
        ax.set_yticks(ys)
        ax.set_yticklabels([label(r) for r in rows], fontsize=8)
        ax.set_xlabel(xlabel)
        ax.set_title(title)

    return draw


def num(v: Any, digits: int = 3) -> str:
    """A number as a person reads it: yes/no, a dash for nothing, 3 decimals or a whole number."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        if v.is_integer() and abs(v) < 1e6:
            return f"{int(v):,}"
        if v != 0 and abs(v) < 10 ** -digits:
            return f"{v:.1e}"
        return f"{v:.{digits}f}"
    return str(v)


def p_text(v: Any) -> str:
    """A p-value: as :func:`num`, but one too small for a float (0.0 after underflow) reads "< 1e-300", never 0."""
    if isinstance(v, float) and v == 0.0:
        return "< 1e-300"
    return num(v)


def ci(pair: Sequence[float] | None, signed: bool = False) -> str:
    if not pair:
        return "-"
    lo, hi = pair
    return f"{lo:+.3f} to {hi:+.3f}" if signed else f"{lo:.3f} to {hi:.3f}"


def words(key: str) -> str:
    """``time_in_force`` -> ``time in force``."""
    return str(key).replace("_", " ")


def write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    if not rows:
        path.write_text("")
        return
    keys: list[str] = []
    for r in rows:
        for k in r:
            if k not in keys:
                keys.append(k)
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        for r in rows:
            w.writerow({k: (json.dumps(v) if isinstance(v, (list, dict)) else v) for k, v in r.items()})


class Page:
    """An HTML page built section by section; every text is escaped."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.parts: list[str] = [f"<h1>{html.escape(title)}</h1>"]

    def heading(self, text: str) -> None:
        self.parts.append(f"<h2>{html.escape(text)}</h2>")

    def para(self, text: str) -> None:
        self.parts.append(f"<p>{html.escape(text)}</p>")

    def bullets(self, items: Sequence[str]) -> None:
        self.parts.append("<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in items) + "</ul>")

    def facts(self, pairs: Sequence[tuple[str, str]]) -> None:
        self.parts.append("<table>" + "".join(
            f"<tr><th class='l'>{html.escape(k)}</th><td class='l'>{html.escape(v)}</td></tr>" for k, v in pairs)
            + "</table>")

    def table(self, header: Sequence[str], rows: Sequence[Sequence[str]], marked: Sequence[bool] = (),
              scroll: bool = False, text: Sequence[int] = (0,)) -> None:
        """``text``: the columns of words (left-aligned); the others are numbers."""
        head = "".join(f"<th class='{'l' if i in text else ''}'>{html.escape(h)}</th>" for i, h in enumerate(header))
        body = []
        for j, row in enumerate(rows):
            cls = " class='sig'" if j < len(marked) and marked[j] else ""
            cells = "".join(f"<td class='{'l' if i in text else ''}'>{html.escape(c)}</td>" for i, c in enumerate(row))
            body.append(f"<tr{cls}>{cells}</tr>")
        t = f"<table><tr>{head}</tr>{''.join(body)}</table>"
        self.parts.append(f"<div class='scroll'>{t}</div>" if scroll else t)

    def image(self, name: str, caption: str) -> None:
        self.parts.append(f"<figure><img src='{html.escape(name)}' alt='{html.escape(caption)}'>"
                          f"<figcaption>{html.escape(caption)}</figcaption></figure>")

    def files(self, names: Sequence[str]) -> None:
        self.heading("Raw numbers")
        self.parts.append("<ul>" + "".join(f"<li><a href='{html.escape(f)}'>{html.escape(f)}</a></li>"
                                           for f in names) + "</ul>")

    def write(self, directory: Path) -> Path:
        page = directory / "index.html"
        page.write_text(f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>"
                        f"{html.escape(self.title)}</title><style>{STYLE}</style></head><body>"
                        + "\n".join(self.parts) + "</body></html>", encoding="utf-8")
        return page
