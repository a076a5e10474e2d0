"""The same person entered twice: suggestions per federation, and merging one entry into another.

Suggestions: players of one federation whose names are equal ignoring case, diacritics and order
(federation.names.same_person_key), with the same country, and the same grade where both have one.

A merge moves everything that is rating INPUT (games, team memberships, substitutions, solving
scores: every foreign key to Player outside the ratings app) from the duplicate to the kept
player, each row saved on its own so the "result changed after rating" signal marks the periods
concerned for a re-run. Rating OUTPUT (list entries, per-event ratings, norms) is left alone:
published lists never change, and their entries keep the old id, whose player page redirects to
the kept player. One audit row records the merge. Refused across federations, and refused (with
nothing changed) when the two entries met, e.g. played each other: then they are two people.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from federation import audit
from federation.models import Federation, Player
from federation.names import same_person_key
from federation.permissions import Actor, require_official

# Rows a merge never moves: what runs computed (published lists keep the old id).
OUTPUT_APPS = {"ratings"}


class MergeRefused(Exception):
    pass


@dataclass(frozen=True)
class Person:
    """What suggestions compare (plain data, so the grouping is a pure function)."""

    id: int
    surname: str
    given_name: str
    country: str
    grade: str


def group_duplicates(people: Iterable[Person]) -> list[list[Person]]:
    """Groups of two or more: same name key and country; where grades are known they agree (a
    player of unknown grade joins the group of the one known grade, if there is only one)."""
    by_name: dict[tuple, list[Person]] = defaultdict(list)
    for person in people:
        by_name[(same_person_key(person.surname, person.given_name), person.country)].append(person)
    groups = []
    for members in by_name.values():
        if len(members) < 2:
            continue
        by_grade: dict[str, list[Person]] = defaultdict(list)
        for person in members:
            by_grade[person.grade].append(person)
        unknown = by_grade.pop("", [])
        if len(by_grade) == 1:
            (only,) = by_grade.values()
            only.extend(unknown)
        elif not by_grade:
            by_grade[""] = unknown
        groups += [sorted(g, key=lambda p: p.id) for g in by_grade.values() if len(g) > 1]
    return sorted(groups, key=lambda g: (g[0].surname.casefold(), g[0].id))


def duplicate_suggestions(federation: Federation) -> list[list[Player]]:
    rows = Player.objects.filter(federation=federation, merged_into__isnull=True).values_list(
        "id", "surname", "given_name", "country", "grade"
    )
    groups = group_duplicates(Person(*row) for row in rows)
    players = Player.objects.in_bulk([p.id for g in groups for p in g])
    return [[players[p.id] for p in group] for group in groups]


@dataclass(frozen=True)
class MergeResult:
    kept: Player
    merged: Player
    moved: dict[str, int]  # "game (white)": 3, ...


def _input_relations():
    for relation in Player._meta.related_objects:
        model = relation.related_model
        if model is Player or model._meta.app_label in OUTPUT_APPS:
            continue
        yield model, relation.field.name


@transaction.atomic
def merge_players(*, keep: Player, duplicate: Player, by: Actor) -> MergeResult:
    """Merge ``duplicate`` into ``keep``; only an official of their federation (or the system)
    may (NotAllowed)."""
    keep = Player.objects.select_for_update().get(pk=keep.pk)
    duplicate = Player.objects.select_for_update().get(pk=duplicate.pk)
    for player in (keep, duplicate):
        require_official(by, player.federation, "merge its players")
    if keep.pk == duplicate.pk:
        raise MergeRefused("a player cannot be merged into himself")
    if keep.federation_id != duplicate.federation_id:
        raise MergeRefused(
            f"{duplicate} and {keep} belong to different federations; only players of one "
            "federation can be merged"
        )
    for player in (keep, duplicate):
        if player.merged_into_id:
            raise MergeRefused(f"{player} was already merged into another player")
    moved: dict[str, int] = {}
    for model, field in _input_relations():
        for row in model.objects.filter(**{field: duplicate}):
            setattr(row, field, keep)
            try:
                with transaction.atomic():
                    row.save(update_fields=[field])
            except IntegrityError:
                raise MergeRefused(
                    f"{duplicate} and {keep} both appear in {model._meta.verbose_name} "
                    f"{row} (they met, so they are two people); nothing was merged"
                ) from None
            label = f"{model._meta.verbose_name} ({field})"
            moved[label] = moved.get(label, 0) + 1
    old = {"merged_into": None, "active": duplicate.active}
    duplicate.merged_into = keep
    duplicate.active = False
    duplicate.save(update_fields=["merged_into", "active"])
    summary = ", ".join(f"{n} {label}" for label, n in sorted(moved.items())) or "nothing"
    audit.record(
        actor=by,
        action="merge",
        obj=duplicate,
        old=old,
        new={"merged_into": keep.pk, "active": False},
        message=f"merged {duplicate} into {keep}; moved {summary}",
    )
    return MergeResult(keep, duplicate, moved)
