"""Database guards that keep a published list, and every row it is built from, as published.

The rows: the list itself (only published → superseded may change, nothing else of the row),
its entries, its run, the run's event ratings, norms and stored input/output, the period's identity (code and dates;
the "needs re-run" mark stays writable) and the federation's rating system. Each is guarded for
INSERT (the new row's side), UPDATE (old and new row) and DELETE by a trigger on PostgreSQL and
SQLite, and for TRUNCATE by a statement trigger on PostgreSQL. The models' save()/delete()
refuse the same changes earlier with ImmutableListError.

FROZEN_COLUMNS names, per guarded table, the columns that never change once published and the
few that may (with the reason); tests/hardening/test_published_immutability.py checks that
every column of every table reachable from a published list is in one of them.
"""

from __future__ import annotations

from federation.triggers import BULK_WRITTEN, Guard

FROZEN = "('published', 'superseded')"
MESSAGE = "published rating lists and the rows they are built from are immutable"


def list_frozen(expr: str) -> str:
    return f"(SELECT status FROM ratings_ratinglist WHERE id = {expr}) IN {FROZEN}"


def run_frozen(expr: str) -> str:
    return f"EXISTS (SELECT 1 FROM ratings_ratinglist WHERE run_id = {expr} AND status IN {FROZEN})"


def period_frozen(expr: str) -> str:
    return (
        f"EXISTS (SELECT 1 FROM ratings_ratinglist WHERE period_id = {expr} AND status IN {FROZEN})"
    )


def federation_frozen(expr: str) -> str:
    return (
        f"EXISTS (SELECT 1 FROM ratings_ratinglist WHERE federation_id = {expr} "
        f"AND status IN {FROZEN})"
    )


# table -> (columns that never change once published, {column: why it may change})
FROZEN_COLUMNS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "ratings_ratinglist": (
        (
            "id",
            "federation_id",
            "period_id",
            "run_id",
            "previous_id",
            "supersedes_id",
            "created_at",
            "published_at",
            "entry_count",
            "output_digest",
        ),
        {
            "status": "published → superseded when a correction is published (only that)",
            "published_by_id": "set to NULL when the publishing user is deleted",
        },
    ),
    "ratings_ratingrun": (
        (
            "id",
            "federation_id",
            "period_id",
            "status",
            "requested_at",
            "started_at",
            "finished_at",
            "attempts",
            "engine",
            "engine_version",
            "params",
            "input_digest",
            "output_digest",
            "duration_seconds",
            "stage_seconds",
            "excluded_events",
            "report",
            "error",
            "chain_head_id",
        ),
        {"requested_by_id": "set to NULL when the requesting user is deleted"},
    ),
    "ratings_ratingperiod": (
        ("id", "federation_id", "code", "starts_on", "ends_on", "list_published_on", "valid_from"),
        {
            "needs_rerun": "a result changed after rating: the mark is the point",
            "needs_rerun_reason": "goes with the mark",
        },
    ),
    "federation_federation": (
        ("system",),
        {
            "id": "a primary key never changes anyway",
            "code": "the public pages are addressed by it; lists are not",
            "name": "a display name, not part of any list",
            "params": "apply to later runs; a published run stores its own params",
        },
    ),
}
# Tables whose every row belongs to one list or run (all columns frozen).
CHILDREN = {
    "ratings_ratingentry": ("rating_list_id", list_frozen),
    "ratings_eventrating": ("run_id", run_frozen),
    "ratings_solvingnorm": ("run_id", run_frozen),
    "ratings_runrecord": ("run_id", run_frozen),
}


def _unchanged(columns) -> str:
    return " AND ".join(f"NEW.{c} IS NOT DISTINCT FROM OLD.{c}" for c in columns)


def _nulled(column: str) -> str:
    return f"(NEW.{column} IS NOT DISTINCT FROM OLD.{column} OR NEW.{column} IS NULL)"


def immutability_guards() -> list[Guard]:
    guards = []
    for table, (column, frozen) in CHILDREN.items():
        name = "guard_" + table.removeprefix("ratings_")  # runs' own runrecord_* triggers exist
        guards += [
            Guard(
                f"{name}_published_no_insert",
                table,
                "INSERT",
                frozen(f"NEW.{column}"),
                MESSAGE,
                per_statement=table in BULK_WRITTEN,
            ),
            Guard(
                f"{name}_published_no_update",
                table,
                "UPDATE",
                f"{frozen(f'OLD.{column}')} OR {frozen(f'NEW.{column}')}",
                MESSAGE,
            ),
            Guard(f"{name}_published_no_delete", table, "DELETE", frozen(f"OLD.{column}"), MESSAGE),
        ]
    fixed, _ = FROZEN_COLUMNS["ratings_ratinglist"]
    status_ok = (
        "(NEW.status = OLD.status OR (OLD.status = 'published' AND NEW.status = 'superseded'))"
    )
    guards += [
        Guard(
            "ratinglist_published_no_update",
            "ratings_ratinglist",
            "UPDATE",
            f"OLD.status IN {FROZEN} AND NOT ({status_ok} AND {_unchanged(fixed)} "
            f"AND {_nulled('published_by_id')})",
            MESSAGE,
        ),
        Guard(
            "ratinglist_published_no_delete",
            "ratings_ratinglist",
            "DELETE",
            f"OLD.status IN {FROZEN}",
            MESSAGE,
        ),
    ]
    fixed, _ = FROZEN_COLUMNS["ratings_ratingrun"]
    guards += [
        Guard(
            "ratingrun_published_no_update",
            "ratings_ratingrun",
            "UPDATE",
            f"{run_frozen('OLD.id')} AND NOT ({_unchanged(fixed)} AND {_nulled('requested_by_id')})",
            MESSAGE,
        ),
        Guard(
            "ratingrun_published_no_delete",
            "ratings_ratingrun",
            "DELETE",
            run_frozen("OLD.id"),
            MESSAGE,
        ),
    ]
    fixed, _ = FROZEN_COLUMNS["ratings_ratingperiod"]
    guards += [
        Guard(
            "ratingperiod_published_no_update",
            "ratings_ratingperiod",
            "UPDATE",
            f"{period_frozen('OLD.id')} AND NOT ({_unchanged(fixed)})",
            MESSAGE,
        ),
        Guard(
            "ratingperiod_published_no_delete",
            "ratings_ratingperiod",
            "DELETE",
            period_frozen("OLD.id"),
            MESSAGE,
        ),
        Guard(
            "federation_published_keeps_system",
            "federation_federation",
            "UPDATE",
            f"{federation_frozen('OLD.id')} AND NOT ({_unchanged(('id', 'system'))})",
            MESSAGE,
        ),
    ]
    any_published = f"EXISTS (SELECT 1 FROM ratings_ratinglist WHERE status IN {FROZEN})"
    for table in TRUNCATE_GUARDED:
        guards.append(
            Guard(f"{table}_no_truncate", table, "TRUNCATE", any_published, MESSAGE),
        )
    return guards


TRUNCATE_GUARDED = (
    "ratings_ratinglist",
    "ratings_ratingentry",
    "ratings_ratingrun",
    "ratings_eventrating",
    "ratings_solvingnorm",
    "ratings_runrecord",
    "ratings_ratingperiod",
    "federation_federation",
)


def all_guards() -> list[Guard]:
    """Every trigger of the site, reinstalled after each migrate (ratings.apps)."""
    from federation.references import reference_guards
    from federation.scoping import move_guards, scope_guards
    from federation.triggers import AUDIT_GUARDS, AUDIT_TRUNCATE_GUARDS

    return [
        *AUDIT_GUARDS,
        *AUDIT_TRUNCATE_GUARDS,
        *scope_guards("tournaments"),
        *scope_guards("ratings"),
        *move_guards(),
        *immutability_guards(),
        *reference_guards(),
    ]


def reinstall_guards(sender, using="default", **kwargs) -> None:
    from django.db import connections

    from federation.triggers import reinstall
    from ratings.persistence import rated_events

    reinstall(connections[using], all_guards())
    rated_events.reinstall(connections[using])
