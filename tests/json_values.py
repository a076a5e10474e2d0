"""Hypothesis strategies of JSON documents of any shape, for the tests that compare two readers
or writers of the same JSON."""

from __future__ import annotations

from hypothesis import strategies as st


def nested(scalars, keys=None, *, max_size: int = 4, max_leaves: int = 20):
    """`scalars`, and lists and objects of them nested to any depth, objects keyed by `keys`
    (short texts unless given)."""
    keys = st.text(max_size=4) if keys is None else keys
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=max_size), st.dictionaries(keys, inner, max_size=max_size)
        ),
        max_leaves=max_leaves,
    )


def json_values(alphabet=None, **limits):
    """Any JSON value: null, booleans, integers past 64 bits, finite floats and texts (of
    `alphabet`, if given), nested in lists and objects."""
    characters = st.characters() if alphabet is None else alphabet
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**25), 10**25),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(characters, max_size=8),
    )
    return nested(scalars, st.text(characters, max_size=4), **limits)
