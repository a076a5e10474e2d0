"""EGF GoR, the old system (RULES §2): tournaments rated in order."""

from typing import TYPE_CHECKING

from ratings.engines.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ratings.engines.egf.contract import params_from_json, run_json, tournaments_from_json
    from ratings.engines.egf.explain import explain_player
    from ratings.engines.egf.rate import (
        CLASS_WEIGHTS,
        CON_NODES,
        CON_VALUES,
        MAX_DROP,
        a_of,
        con_of,
        handicap_shift,
        history_arrays,
        is_reset,
        rate_arrays,
        rate_history,
        rate_tournament,
    )
    from ratings.engines.egf.types import (
        DEFAULT_PARAMS,
        EPSILON,
        Game,
        GameExplanation,
        HistoryArrays,
        Params,
        PlayerChange,
        PlayerEntry,
        PlayerExplanation,
        RatedHistory,
        Tournament,
        TournamentChange,
    )

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "contract": (
            "params_from_json",
            "run_json",
            "tournaments_from_json",
        ),
        "explain": ("explain_player",),
        "rate": (
            "CLASS_WEIGHTS",
            "CON_NODES",
            "CON_VALUES",
            "MAX_DROP",
            "a_of",
            "con_of",
            "handicap_shift",
            "history_arrays",
            "is_reset",
            "rate_arrays",
            "rate_history",
            "rate_tournament",
        ),
        "types": (
            "DEFAULT_PARAMS",
            "EPSILON",
            "Game",
            "GameExplanation",
            "HistoryArrays",
            "Params",
            "PlayerChange",
            "PlayerEntry",
            "PlayerExplanation",
            "RatedHistory",
            "Tournament",
            "TournamentChange",
        ),
    },
    (
        "columns",
        "contract",
        "explain",
        "rate",
        "reference",
        "types",
    ),
)

__all__ = [
    "CLASS_WEIGHTS",
    "CON_NODES",
    "CON_VALUES",
    "DEFAULT_PARAMS",
    "EPSILON",
    "Game",
    "GameExplanation",
    "HistoryArrays",
    "MAX_DROP",
    "Params",
    "PlayerChange",
    "PlayerEntry",
    "PlayerExplanation",
    "RatedHistory",
    "Tournament",
    "TournamentChange",
    "a_of",
    "con_of",
    "explain_player",
    "handicap_shift",
    "history_arrays",
    "is_reset",
    "params_from_json",
    "rate_arrays",
    "rate_history",
    "rate_tournament",
    "run_json",
    "tournaments_from_json",
]
