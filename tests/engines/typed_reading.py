"""What the typed-reading tests of the ICCF and EGF command lines share: the dict reading's
answer to compare with, a document written as JSON text the ways other programs write it, and
how often the typed reading takes generated documents."""

from __future__ import annotations

import json
from collections.abc import Callable
from types import ModuleType

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.core import jsonio

# Numbers as another program might write them; each reads as the same or a nearby value.
NUMBER_TEXTS = st.sampled_from(
    [
        lambda x: repr(float(x)),
        lambda x: f"{x:.25f}",  # more digits than a float holds
        lambda x: f"{x:.3e}",
        lambda x: str(int(x)) if float(x).is_integer() else repr(x),
        lambda x: "1" + "0" * 25,  # beyond 64 bits: the strict reader keeps it as an int
        lambda x: "9" * 40,  # beyond what the strict reader accepts
        lambda x: "-0",
    ]
)


def now_and_then(one_in: int) -> st.SearchStrategy[bool]:
    """True one time in ``one_in`` (Hypothesis would draw the 0 of integers(0, n) far more)."""
    return st.sampled_from([False] * (one_in - 1) + [True])


def by_dicts(contract: ModuleType, raw: bytes) -> str:
    """The command line's text of ``raw`` read as dicts, or the error it raises."""
    try:
        return contract.run_text(jsonio.loads(raw))
    except Exception as exc:  # noqa: BLE001  the same error, whatever it is
        return f"{type(exc).__name__}: {exc}"


def json_writer(draw, *, twice_one_in: int, unknown_one_in: int | None = None) -> Callable:
    """A function writing a value as JSON text: keys now and then reversed or given twice
    (the last one counts), with a key the contract does not know (``unknown_one_in``), and
    numbers sometimes written another way (NUMBER_TEXTS)."""
    write_number = draw(NUMBER_TEXTS)
    rewrite = draw(now_and_then(3))  # sometimes numbers written another way

    def text(value) -> str:
        if isinstance(value, dict):
            items = list(value.items())
            if draw(now_and_then(15)):
                items.reverse()
            if items and draw(now_and_then(twice_one_in)):  # a key twice: the last one counts
                items.insert(0, (items[-1][0], "earlier"))
            if unknown_one_in and draw(now_and_then(unknown_one_in)):
                items.append(("note", draw(st.sampled_from([1, "x", None, 1.5]))))
            inner = ", ".join(f"{json.dumps(k)}: {text(v)}" for k, v in items)
            return "{" + inner + "}"
        if isinstance(value, list):
            return "[" + ",\n ".join(text(v) for v in value) + "]"
        if rewrite and type(value) in (int, float) and draw(now_and_then(4)):
            return write_number(value)
        return json.dumps(value)

    return text


def typed_share(contract: ModuleType, documents: st.SearchStrategy[bytes]) -> float:
    """The share of 200 generated documents the typed reading takes. The same 200 each time:
    drawn at random, the share spread over 0.29-0.67 in 25 draws of 200, so a bound on it
    failed now and then for nothing."""
    taken = []

    @settings(max_examples=200, deadline=None, database=None, derandomize=True)
    @given(documents)
    def count(raw):
        taken.append(contract.run_text_of_bytes(raw) is not None)

    count()
    return sum(taken) / len(taken)
