"""Names as people type them: case, diacritics and name order forgiven (pure, no Django).

One home for the folding used by every player search (public site, API, admin autocomplete),
by import matching (EGF tables, EGD/FIDE lists) and by duplicate suggestions.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

# Letters that Unicode does not decompose into a base letter plus a combining mark.
_UNDECOMPOSED = str.maketrans(
    {"ł": "l", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i", "ħ": "h"}
)


def fold(text: str) -> str:
    """'  Kamińska ' -> 'kaminska', 'Wagner-Łukasz' -> 'wagner-lukasz': lower case, no marks,
    single spaces."""
    # compatibility forms first ('𝓐' -> 'A'), then case, then marks (casefold may add some)
    lowered = unicodedata.normalize("NFKD", text).casefold().translate(_UNDECOMPOSED)
    decomposed = unicodedata.normalize("NFKD", lowered)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.split())


@dataclass(frozen=True)
class NameSplit:
    """One reading of a typed name: folded prefixes of the surname and the given name."""

    surname: str
    given: str = ""


def readings(query: str) -> tuple[NameSplit, ...]:
    """Every way to read what someone typed as (surname, given name) prefixes.

    "Kamińska, Adam" is surname first; "adam kaminska" may be either order; one word is a
    surname prefix. Several words are split at every gap, both ways round, so "van der Berg Jan"
    and "Jan van der Berg" both find Jan van der Berg.
    """
    if "," in query:
        surname, _, given = query.partition(",")
        split = NameSplit(fold(surname), fold(given))
        return (split,) if split.surname else ()
    words = fold(query).split()
    if not words:
        return ()
    found: list[NameSplit] = [NameSplit(" ".join(words))]
    for gap in range(1, len(words)):
        head, tail = " ".join(words[:gap]), " ".join(words[gap:])
        found.append(NameSplit(surname=tail, given=head))
        found.append(NameSplit(surname=head, given=tail))
    return tuple(dict.fromkeys(found))


def same_person_key(surname: str, given: str) -> tuple[str, ...]:
    """A key equal for the same name written with other case, marks or order."""
    return tuple(sorted(fold(f"{surname} {given}").split()))
