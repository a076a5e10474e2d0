"""The ICCF runner reads the engine's output held as columns and, where the engine read its
input as a document, the output document: both give the same per-player columns."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings

from ratings.engines.core.errors import EngineInputError
from ratings.engines.iccf import contract
from ratings.systems.iccf.runner import _rated
from tests.ratings.engines.iccf.test_input_columns import period


@settings(max_examples=200, deadline=None)
@given(period())
def test_output_columns_and_document_read_alike(columns):
    try:
        output = contract.run_json(columns)
    except (EngineInputError, ValueError):
        return
    if not isinstance(output, contract.RatedColumns):
        return
    by_columns = _rated(output, columns.ids)
    by_document = _rated(output.to_json(), columns.ids)
    for name, values in by_columns._asdict().items():
        np.testing.assert_array_equal(values, getattr(by_document, name), err_msg=name)
