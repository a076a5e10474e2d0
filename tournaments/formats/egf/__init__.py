"""EGF results tables (``.h9``, ``.h2``, ... as OpenGotha writes and the EGD stores them), RULES §2.6-2.8.

``parse_table`` reads a whole table and reports every problem it finds (line number and offending
text), never only the first; ``write_table`` writes a table back; ``engine_input`` turns a clean
table into the JSON shape of ``python -m ratings.engines egf``. Pure: standard library and the
shared go-grade type (``ratings.engines.core.grades``).

One job per module: ``types`` (the data), ``encoding`` (bytes to text), ``header`` (the tags),
``entries`` (a round entry as written), ``parse`` (the table), ``pairing`` (both sides of a game
matched, the games built), ``write``, ``engine_input`` and ``cli``
(``python -m tournaments.formats.egf FILE``).
"""

from tournaments.formats.egf.cli import main
from tournaments.formats.egf.encoding import decode
from tournaments.formats.egf.engine_input import engine_input, player_ids
from tournaments.formats.egf.pairing import EVEN_REDUCTION_FROM, IMPLICIT_HANDICAP_MAX
from tournaments.formats.egf.parse import parse_table, parse_table_or_raise
from tournaments.formats.egf.types import (
    FreeRound,
    Header,
    Issue,
    ParsedTable,
    Player,
    TableError,
    TableGame,
)
from tournaments.formats.egf.write import write_table

__all__ = [
    "EVEN_REDUCTION_FROM",
    "IMPLICIT_HANDICAP_MAX",
    "FreeRound",
    "Header",
    "Issue",
    "ParsedTable",
    "Player",
    "TableError",
    "TableGame",
    "decode",
    "engine_input",
    "main",
    "parse_table",
    "parse_table_or_raise",
    "player_ids",
    "write_table",
]
