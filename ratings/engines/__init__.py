"""Pure rating engines: standard library and NumPy only, no Django.

One package per system (iccf, egf, playchess, wfcc), each with the same modules: ``types``,
``contract`` (``run_json(data: dict) -> dict``, the JSON contract of
``python -m ratings.engines SYSTEM INPUT.json``), ``rate``, ``explain`` and ``reference``. The
shared pieces live once in ``core``; bad input raises ``core.errors.EngineInputError``.
"""

SYSTEMS = ("iccf", "egf", "playchess", "wfcc")
