"""Both sides of every pairing matched, mismatches reported, the games built (RULES §2.7-2.8)."""

from __future__ import annotations

from ratings.engines.core.grades import parse_grade
from tournaments.formats.egf.entries import Entry
from tournaments.formats.egf.types import FreeRound, Issue, TableGame

EVEN_REDUCTION_FROM = 9  # setting EGF_EVEN_REDUCTION_FROM: reduction >= 9 means even games
IMPLICIT_HANDICAP_MAX = 9  # setting EGF_IMPLICIT_HANDICAP_MAX

_OPPOSITE = {"+": "-", "-": "+", "=": "=", "?": "?"}
_SCORE = {"+": 1.0, "-": 0.0, "=": 0.5}


def pair_games(lines, players, rounds, reduction, errors, warnings):
    """Matches both sides of every pairing, reports mismatches, builds the games."""
    games: list[TableGame] = []
    free: list[FreeRound] = []
    n = len(lines)
    missing_reduction_reported = False
    for r in range(rounds):
        for i, line in enumerate(lines, start=1):
            if not line.entries:
                continue  # a broken line, already reported
            entry = line.entries[r]
            where = f"round {r + 1}: "
            if entry.opponent == 0:
                free.append(FreeRound(i, r + 1, entry.symbol))
                continue
            if entry.opponent > n or entry.opponent == i:
                what = (
                    "no such player line" if entry.opponent > n else "a player cannot play himself"
                )
                errors.append(Issue(line.number, entry.token, where + what))
                continue
            other = lines[entry.opponent - 1]
            if not other.entries:
                continue  # the opponent's line is broken: nothing to compare with
            back = other.entries[r]
            if back.opponent != i:
                errors.append(
                    Issue(
                        line.number,
                        entry.token,
                        f"{where}line {other.number} (player {entry.opponent}) has "
                        f"{back.token!r}, not player {i}",
                    )
                )
                continue
            if entry.opponent < i:
                continue  # the pair was handled from the other side
            problem = _mismatch(entry, back)
            if problem:
                errors.append(
                    Issue(
                        line.number,
                        entry.token,
                        f"{where}{problem}: line {other.number} (player {entry.opponent}) "
                        f"has {back.token!r}",
                    )
                )
                continue
            game = _game(r + 1, i, entry, entry.opponent, back, players, reduction)
            if game is None:
                if not missing_reduction_reported:
                    errors.append(
                        Issue(
                            line.number,
                            entry.token,
                            "handicap not written and no reduction known (no HA[hN] tag, "
                            "no .hN file name): give the reduction",
                        )
                    )
                    missing_reduction_reported = True
                continue
            note = _warning(entry, back)
            if note:
                warnings.append(
                    Issue(
                        line.number,
                        entry.token,
                        f"{where}{note} (with line {other.number}): not rated",
                    )
                )
            games.append(game)
    return games, free


def _mismatch(entry: Entry, back: Entry) -> str | None:
    both_win_or_lose = entry.symbol == back.symbol and entry.symbol in "+-"
    if back.symbol != _OPPOSITE[entry.symbol] and not both_win_or_lose:
        return "results do not agree"
    if entry.separator != back.separator:
        return "one side by default ('!'), the other not"
    colours = (entry.colour, back.colour)
    if colours not in ((None, None), ("?", "?"), ("b", "w"), ("w", "b")):
        return "colours do not agree"
    if (entry.stones or 0) != (back.stones or 0):
        return "handicap stones do not agree"
    return None


def _warning(entry: Entry, back: Entry) -> str | None:
    if entry.separator == "!":
        return "game by default"
    if entry.symbol == "?":
        return "result unknown"
    if entry.symbol == back.symbol == "+":
        return "both players won"
    if entry.symbol == back.symbol == "-":
        return "both players lost"
    if entry.colour == "?":
        return "colours unknown"
    return None


def _game(round_, i, entry, j, back, players, reduction) -> TableGame | None:
    scores = (_SCORE.get(entry.symbol), _SCORE.get(back.symbol))
    colours_known = True
    explicit = entry.separator is not None
    if entry.colour in ("b", "w"):
        stones = entry.stones or 0
        white_is_i = entry.colour == "w"
    elif entry.colour == "?":
        stones, white_is_i, colours_known = entry.stones or 0, True, False
    else:
        # No colour written: handicap from the grades (explicit stones would still win).
        steps_i = parse_grade(players[i - 1].grade).steps
        steps_j = parse_grade(players[j - 1].grade).steps
        if entry.stones is not None:
            stones = entry.stones
        elif entry.separator == "!":
            stones = 0  # not played, not rated: no reduction needed
        elif reduction is None:
            return None
        elif reduction >= EVEN_REDUCTION_FROM:
            stones = 0
        else:
            stones = min(max(abs(steps_i - steps_j) - reduction, 0), IMPLICIT_HANDICAP_MAX)
        # With stones, Black is the weaker grade; an even game written without colours keeps
        # them unknown (White = the earlier line; colours do not matter to an even game's rating).
        colours_known = stones > 0
        white_is_i = steps_i >= steps_j if colours_known else True
    rated = (
        entry.separator != "!"
        and None not in scores
        and scores[0] + scores[1] == 1.0
        and (colours_known or stones == 0)
        and entry.colour != "?"
    )
    white, black = (i, j) if white_is_i else (j, i)
    white_score, black_score = scores if white_is_i else scores[::-1]
    return TableGame(
        round=round_,
        white=white,
        black=black,
        white_score=white_score,
        black_score=black_score,
        handicap=stones,
        by_default=entry.separator == "!",
        rated=rated,
        colours_known=colours_known,
        explicit=explicit,
    )
