"""``python -m ratings.engines SYSTEM INPUT.json`` (``-`` reads stdin): JSON in, JSON out.

Bad input exits with status 2, one line on stderr naming the entry, nothing on stdout.
"""

from __future__ import annotations

import importlib
import mmap
import os
import sys
from typing import Any

from ratings.engines import SYSTEMS
from ratings.engines.core import jsonio
from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.gc_pause import cycle_collector_paused

USAGE = f"usage: python -m ratings.engines {{{','.join(SYSTEMS)}}} INPUT.json|-"


def _output_text(engine: Any, path: str, keep: list[Any] | None) -> str:
    """The output of the input at ``path``. A file is mapped, not read: the decoders read it in
    place, and a copy of a large history would cost fresh memory for nothing."""
    if path == "-":
        return _output_of(engine, sys.stdin.buffer.read(), keep)
    try:
        with open(path, "rb") as handle:
            try:
                mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            except (ValueError, OSError):  # empty, or not a regular file (a pipe, a device)
                return _output_of(engine, handle.read(), keep)
    except OSError as exc:
        raise EngineInputError(path, exc.strerror or "cannot be read") from None
    with mapped, memoryview(mapped) as view:
        return _output_of(engine, view, keep)


def _output_of(engine: Any, raw: bytes | memoryview, keep: list[Any] | None) -> str:
    # The one reading of every system's input: jsonio.loads, then the contract's own checks,
    # which decide what the document means and name what is wrong.
    data = jsonio.loads(raw)
    if keep is not None:
        keep.append(data)
    # canonical bytes: an exported run's input prints exactly its stored output
    # (run_text, where a contract has it, writes the same text without the dicts)
    run_text = getattr(engine, "run_text", None)
    return jsonio.dumps(engine.run_json(data)) if run_text is None else run_text(data)


def main(argv: list[str] | None = None, *, keep: list[Any] | None = None) -> int:
    """Runs the command line; ``keep`` receives the decoded input, so that the caller may leave
    it to the end of the process instead of freeing it."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] not in SYSTEMS:
        print(USAGE, file=sys.stderr)
        return 2
    system, path = args
    # the system's contract alone: not its explanations, its reference or another system
    engine = importlib.import_module(f"ratings.engines.{system}.contract")
    try:
        with cycle_collector_paused():  # the document, the columns, the output: no cycles
            output = _output_text(engine, path, keep).encode()
    except EngineInputError as exc:
        print(str(exc).replace("\n", " "), file=sys.stderr)
        return 2
    stream = getattr(sys.stdout, "buffer", None)  # a text stream in place of stdout has none
    if stream is None:
        sys.stdout.write(output.decode() + "\n")
    else:
        stream.write(output + b"\n")
    return 0


def _run_as_program() -> None:
    # The engines do no linear algebra (tests/ratings/engines/test_cli_imports.py): OpenBLAS need not
    # start a thread per core as NumPy loads it, a third of NumPy's import. A value the caller
    # set is kept.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    kept: list[Any] = []
    code = main(keep=kept)
    # The decoded input (millions of objects for a long history) and every module would be
    # freed one by one at exit, for nothing: the output is flushed, and the process ends here.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    _run_as_program()
