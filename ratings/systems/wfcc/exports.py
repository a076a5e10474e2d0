"""The published list in WFCC's own format: the solvers' list (name, country, rating,
tournaments, half-rating flag), listed entries by rank."""

from __future__ import annotations

from collections.abc import Iterator

from django.utils.translation import gettext_lazy as _

from ratings.models import RatingList
from ratings.systems.base import NativeFormat
from ratings.systems.list_files import list_title, ranked_values
from tournaments.formats.solvers_list import SolverLine, write_solvers


def solvers_list(rating_list: RatingList) -> Iterator[str]:
    return write_solvers(
        (
            SolverLine(
                v["rank"],
                v["player__surname"],
                v["player__given_name"],
                v["player__country"],
                v["published_rating"],
                v["total_games"] or v["games"],
                v["half_rating"],
            )
            for v in ranked_values(rating_list)
        ),
        list_date=rating_list.period.valid_from,
        title=list_title(rating_list),
    )


NATIVE_FORMAT = NativeFormat("solvers.txt", _("Solvers' list"), solvers_list)
