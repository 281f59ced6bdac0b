"""Reading the CLI's text output in tests: its messages wrapped to 80 columns joined again."""
from __future__ import annotations


def messages(text: str) -> list[str]:
    """The lines of ``text`` with each message's continuation lines (the wrapping to 80
    columns indents them two more than the message's first line) joined to it by a space."""
    out: list[str] = []
    for ln in text.splitlines():
        if out and ln.startswith("  ") and not out[-1].startswith("  "):
            out[-1] += " " + ln.strip()
        else:
            out.append(ln)
    return out
