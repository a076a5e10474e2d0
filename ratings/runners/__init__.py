"""Per-system adapters between the database and the pure engines.

Each runner module has ``build(ctx) -> Prepared`` (read the database into the engine's JSON
input) and ``interpret(prepared, output) -> Outcome`` (turn the engine's output into list entries,
per-event ratings and norms). Computing is ``engine.run_json(prepared.engine_input)``.
"""

from importlib import import_module


def runner_for(system: str):
    return import_module(f"ratings.runners.{system}")
