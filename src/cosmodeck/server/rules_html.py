"""The packaged rules as HTML for the rules page: Markdown (the English spec) or plain text (the
Spanish rulebook). Raw HTML in a source is escaped, never passed through."""

from __future__ import annotations

import html

from markdown_it import MarkdownIt

_MD = MarkdownIt("commonmark", {"html": False}).enable("table")


def rules_html(text: str, markdown: bool) -> str:
    """``text`` as an HTML fragment: Markdown rendered, or plain text as one paragraph per block."""
    if markdown:
        return str(_MD.render(text))
    blocks = [b.strip("\n") for b in text.split("\n\n") if b.strip()]
    return "\n".join(f'<p class="plain">{html.escape(b)}</p>' for b in blocks)
