"""Per-system adapters between the database and the pure engines.

Each runner module has ``build(ctx) -> Prepared`` (read the database into the engine's JSON
input, with labels naming the rows behind it) and ``interpret(prepared, output) -> Outcome``
(turn the engine's output into list entries, per-event ratings and norms). Which runner a
federation uses is the registry's answer (``ratings.systems``).
"""
