"""AnyOf: `IN` over a long list of values, sent to PostgreSQL as one array.

A rating run reads a period's games by the ids of its events: 2,000 for the ICCF benchmark.
As `IN (%s, …)` that is 2,000 placeholders for Django to compile, psycopg to number (its cache
skips a statement that long) and PostgreSQL to parse; as `= ANY(%s)` it is one array value.
Other databases get Django's IN. Used as an expression: filter(AnyOf(F("event_id"), ids)), with
hashable values (ids, codes).
"""

from __future__ import annotations

from django.core.exceptions import EmptyResultSet
from django.db.models.lookups import In


class AnyOf(In):
    lookup_name = "any_of"

    def as_postgresql(self, compiler, connection):
        if not self.rhs_is_direct_value():  # a subquery or expressions: IN does it
            return self.as_sql(compiler, connection)
        values = list(dict.fromkeys(v for v in self.rhs if v is not None))
        if not values:
            raise EmptyResultSet  # as IN: an empty list matches nothing, without a query
        lhs, lhs_params = self.process_lhs(compiler, connection)
        _, prepared = self.batch_process_rhs(compiler, connection, values)
        # the array typed as the column: an untyped one of small ints is int2[], whose `=` with
        # a bigint column is not hashed, so PostgreSQL compared each row with every element
        # (costed so, it chose an index scan three times slower than IN's plan)
        array_type = self.lhs.output_field.cast_db_type(connection)
        return f"{lhs} = ANY(%s::{array_type}[])", (*lhs_params, list(prepared))
