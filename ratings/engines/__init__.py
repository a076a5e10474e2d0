"""Pure rating engines: standard library and NumPy only, no Django.

Each system module (iccf, egf, playchess, wfcc) exposes ``run_json(data: dict) -> dict``, the
JSON contract of ``python -m ratings.engines SYSTEM INPUT.json``, and raises
``EngineInputError`` for bad input.
"""

SYSTEMS = ("iccf", "egf", "playchess", "wfcc")
