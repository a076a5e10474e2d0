"""{% select_options %} (the list page's period selector) gives the bytes of the template loop it
replaced, on generated choices (odd texts, the selected one present or not)."""

from __future__ import annotations

from django.template import engines
from hypothesis import given
from hypothesis import strategies as st

LOOP = (
    '{% for code, label in periods %}<option value="{{ code }}"'
    "{% if code == selected %} selected{% endif %}>{{ label }}</option>{% endfor %}"
)
TAG = "{% load ratings_extras %}{% select_options periods selected %}"
texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=10)


@given(periods=st.lists(st.tuples(texts, texts), max_size=8), pick=st.integers(0, 9), other=texts)
def test_select_options_is_the_loop(periods, pick, other):
    selected = periods[pick][0] if pick < len(periods) else other
    context = {"periods": periods, "selected": selected}
    django = engines["django"]
    assert django.from_string(TAG).render(context) == django.from_string(LOOP).render(context)
