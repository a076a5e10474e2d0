"""Generated hostile EGF results tables: a valid seed table, then one mutation each."""

from __future__ import annotations

import re

from hypothesis import strategies as st

from tests.hardening.hostile import Case

HEADER = """; CL[B]
; EV[Club Cup]
; PC[CZ,Brno]
; DT[2024-03-02,2024-03-03]
; HA[h9]
; KM[6.5]
; TC[T240302A]
"""
# Four players, three rounds, every pairing written from both sides and consistent.
PLAYERS = [
    "   1 Novak Jan         3d CZ Brno  3  2+/w0   3+/b0   4+/w0  |12345678",
    "   2 Kral Petr         1k CZ Brno  2  1-/b0   4+/w0   3=/b0",
    "   3 Svoboda Eva       2k CZ Prah  1  4-/b0   1-/w0   2=/w0",
    "   4 Dvorak Ivo        5k SK Kosi  0  3+/w0   2-/b0   1-/b0  |87654321",
]
SEED = HEADER + "\n".join(PLAYERS) + "\n"
ROUND_AT = 7  # index of the first round entry among a player line's tokens (before any "|")


def _tokens(line: str) -> tuple[list[str], str]:
    body, bar, pin = line.partition("|")
    return body.split(), bar + pin


def _join(tokens: list[str], pin: str) -> str:
    return "   " + " ".join(tokens) + (f"  {pin}" if pin else "")


def _with_line(index: int, line: str) -> str:
    players = list(PLAYERS)
    players[index] = line
    return HEADER + "\n".join(players) + "\n"


def _entry_parts(token: str) -> tuple[str, str, str]:
    """'2+/w0' -> ('2', '+', '/w0')."""
    match = re.fullmatch(r"(\d+)([+\-=?])(.*)", token)
    return match.group(1), match.group(2), match.group(3)


BAD_HEADERS = [
    ("KM[6.5]", "KM[nan]"),
    ("KM[6.5]", "KM[inf]"),
    ("KM[6.5]", "KM[1e999]"),
    ("KM[6.5]", "KM[" + "9" * 5000 + "]"),
    ("HA[h9]", "HA[h" + "9" * 5000 + "]"),
    ("HA[h9]", "HA[h²]"),
    ("CL[B]", "CL[E]"),
    ("DT[2024-03-02,2024-03-03]", "DT[2024-13-45]"),
    ("DT[2024-03-02,2024-03-03]", "DT[2024-03-03,2024-03-02]"),
    ("CL[B]", "CL[]"),
]
ODD_TOKENS = st.one_of(
    st.sampled_from(
        [
            "9" * 5000,
            "²",
            "٣",
            "NaN",
            "Infinity",
            "-1",
            "0",
            "1e999",
            "",
            "\x00",
            "|",
            ";",
            "0+0",
            "1+/b99",
            "5-/w",
            "99d",
            "0k",
        ]
    ),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=12),
)


@st.composite
def table_cases(draw) -> Case:
    kind = draw(
        st.sampled_from(
            [
                "drop-entry",
                "extra-entry",
                "asymmetric",
                "unknown-colour",
                "colour-clash",
                "result-clash",
                "huge-opponent",
                "huge-stones",
                "bad-header",
                "empty",
                "duplicate-line",
                "odd-token",
                "truncate",
                "non-utf8",
                "random-bytes",
                "shuffle",
            ]
        )
    )
    i = draw(st.integers(0, len(PLAYERS) - 1))
    tokens, pin = _tokens(PLAYERS[i])
    r = draw(st.integers(0, 2))
    at = ROUND_AT + r
    opponent, symbol, tail = _entry_parts(tokens[at])

    def mutated(new_tokens: list[str]) -> bytes:
        return _with_line(i, _join(new_tokens, pin)).encode()

    if kind == "drop-entry":
        return Case(kind, mutated(tokens[:at] + tokens[at + 1 :]), True)
    if kind == "extra-entry":
        return Case(kind, mutated([*tokens, draw(st.sampled_from(["0-", "0+", "2+/w0"]))]), True)
    if kind == "asymmetric":
        other = draw(st.sampled_from([str(n) for n in (1, 2, 3, 4, 5, 99) if str(n) != opponent]))
        return Case(kind, mutated(tokens[:at] + [other + symbol + tail] + tokens[at + 1 :]), True)
    if kind == "unknown-colour":
        colour = draw(st.sampled_from(["x", "k", "z", "ww", "1"]))
        token = f"{opponent}{symbol}/{colour}0"
        return Case(kind, mutated(tokens[:at] + [token] + tokens[at + 1 :]), True)
    if kind == "colour-clash":
        token = opponent + symbol + tail.translate(str.maketrans("wb", "bw"))
        return Case(kind, mutated(tokens[:at] + [token] + tokens[at + 1 :]), True)
    if kind == "result-clash":
        token = opponent + ("+" if symbol == "=" else "=") + tail
        return Case(kind, mutated(tokens[:at] + [token] + tokens[at + 1 :]), True)
    if kind == "huge-opponent":
        token = "9" * draw(st.sampled_from([7, 30, 5000])) + symbol + tail
        return Case(kind, mutated(tokens[:at] + [token] + tokens[at + 1 :]), True)
    if kind == "huge-stones":
        token = opponent + symbol + tail[:2] + "9" * draw(st.sampled_from([5, 30, 5000]))
        return Case(kind, mutated(tokens[:at] + [token] + tokens[at + 1 :]), True)
    if kind == "bad-header":
        old, new = draw(st.sampled_from(BAD_HEADERS))
        return Case(f"{kind} {new[:20]}", SEED.replace(old, new).encode(), True)
    if kind == "empty":
        blank = draw(st.sampled_from([b"", b"\n", b"  \r\n\t", b"\xef\xbb\xbf", b"; CL[A]\n"]))
        return Case(kind, blank, True)
    if kind == "duplicate-line":
        return Case(kind, (SEED + PLAYERS[i] + "\n").encode(), True)
    if kind == "odd-token":
        where = draw(st.integers(0, len(tokens)))
        token = draw(ODD_TOKENS)
        return Case(
            f"{kind} {token[:10]!r}@{where}",
            mutated(tokens[:where] + [token] + tokens[where:]),
            False,
        )
    data = SEED.encode()
    if kind == "truncate":
        return Case(kind, data[: draw(st.integers(0, len(data) - 1))], False)
    if kind == "non-utf8":
        where = draw(st.integers(0, len(data)))
        junk = draw(st.sampled_from([b"\xff", b"\xc3\x28", b"\xa4", b"\x80\x81"]))
        return Case(kind, data[:where] + junk + data[where:], False)
    if kind == "random-bytes":
        return Case(kind, draw(st.binary(max_size=400)), False)
    order = draw(st.permutations(range(len(PLAYERS))))
    return Case(kind, (HEADER + "\n".join(PLAYERS[k] for k in order) + "\n").encode(), False)


def ten_megabytes() -> bytes:
    """A 10 MB table (just under the admin's upload limit): the seed, a 10 MB comment line and a
    player line whose entry does not point back, so it is refused after reading it all.
    (200,000 player lines of the same size parse too, in about 10 s: see the report.)"""
    tail = "   5 Last Line 3k CZ Brno 0 1+/w0 0- 0-\n"
    padding = 10 * 1024 * 1024 - 100 - len(SEED) - len(tail)
    return (SEED + "; " + "x" * padding + "\n" + tail).encode()


def ten_megabytes_of_players() -> bytes:
    """10 MB of player lines (about 250,000), each pairing pointing at a line that does not
    point back: the parser's worst case."""
    out = [HEADER]
    size = len(HEADER)
    n = 0
    while size < 10 * 1024 * 1024 - 200:
        line = f"{n + 1:>6} P{n} Q 3k CZ Brno 0 {(n + 1) % 4 + 1}+/w0 0- 0-\n"
        out.append(line)
        size += len(line)
        n += 1
    return "".join(out).encode()
