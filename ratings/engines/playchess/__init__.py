"""PlayChess ratings (RULES §3): one batch = one rating run."""

from typing import TYPE_CHECKING

from ratings.engines.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ratings.engines.playchess.contract import MAX_COUNT, params_from_json, run_json
    from ratings.engines.playchess.explain import explain
    from ratings.engines.playchess.rate import (
        correction_factor,
        expected_score,
        experience_coefficient,
        performance_difference,
        rate_batch,
        rating_coefficient,
    )
    from ratings.engines.playchess.types import (
        DEFAULT_PARAMS,
        BatchResult,
        EstablishedGame,
        EstablishedPart,
        Explanation,
        Game,
        GameResult,
        KTable,
        Params,
        Player,
        PlayerResult,
        PriorGame,
        ProvisionalGame,
        ProvisionalPart,
    )

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "contract": (
            "MAX_COUNT",
            "params_from_json",
            "run_json",
        ),
        "explain": ("explain",),
        "rate": (
            "correction_factor",
            "expected_score",
            "experience_coefficient",
            "performance_difference",
            "rate_batch",
            "rating_coefficient",
        ),
        "types": (
            "DEFAULT_PARAMS",
            "BatchResult",
            "EstablishedGame",
            "EstablishedPart",
            "Explanation",
            "Game",
            "GameResult",
            "KTable",
            "Params",
            "Player",
            "PlayerResult",
            "PriorGame",
            "ProvisionalGame",
            "ProvisionalPart",
        ),
    },
    (
        "contract",
        "explain",
        "rate",
        "reference",
        "types",
    ),
)

__all__ = [
    "BatchResult",
    "DEFAULT_PARAMS",
    "EstablishedGame",
    "EstablishedPart",
    "Explanation",
    "Game",
    "GameResult",
    "KTable",
    "MAX_COUNT",
    "Params",
    "Player",
    "PlayerResult",
    "PriorGame",
    "ProvisionalGame",
    "ProvisionalPart",
    "correction_factor",
    "expected_score",
    "experience_coefficient",
    "explain",
    "params_from_json",
    "performance_difference",
    "rate_batch",
    "rating_coefficient",
    "run_json",
]
