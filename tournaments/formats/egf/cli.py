"""``python -m tournaments.formats.egf FILE``: the engine's JSON (plus ``warnings``) on stdout;
errors on stderr, exit 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tournaments.formats.egf.engine_input import engine_input
from tournaments.formats.egf.parse import parse_table_or_raise
from tournaments.formats.egf.types import TableError


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m tournaments.formats.egf FILE", file=sys.stderr)
        return 2
    path = Path(args[0])
    try:
        data = path.read_bytes()
    except OSError as exc:
        print(f"line 0: {path}: {exc.strerror or 'cannot be read'}", file=sys.stderr)
        return 2
    try:
        table = parse_table_or_raise(data, filename=path.name)
        output = engine_input(table, tournament_id=table.header.egd_code or path.stem)
    except TableError as exc:
        for issue in exc.errors:
            print(str(issue).replace("\n", " "), file=sys.stderr)
        return 2
    sys.stdout.write(json.dumps(output, ensure_ascii=False) + "\n")
    return 0
