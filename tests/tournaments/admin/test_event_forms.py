"""Each federation's own admin (issue 13 item 2): the event form shows the fields of the
federation's rating system, with the official's federation preselected; the EGF import is for
EGF officials only."""

from __future__ import annotations

import pytest

from federation.models import Federation
from ratings import systems
from tests.factories import make_official, make_user

SYSTEM_ONLY_FIELDS = {s.code: s.event_fields for s in systems.ALL}

pytestmark = pytest.mark.django_db
ADD = "/admin/tournaments/event/add/"


def _form_fields(client) -> set[str]:
    response = client.get(ADD)
    assert response.status_code == 200
    return set(response.context["adminform"].form.fields)


@pytest.mark.parametrize("system", ["iccf", "egf", "playchess", "wfcc"])
def test_an_official_sees_only_his_systems_fields_and_his_federation(client, system):
    federation = Federation.objects.create(code=f"f-{system}", name=system, system=system)
    client.force_login(make_official(f"o-{system}", federation))
    fields = _form_fields(client)
    for other, names in SYSTEM_ONLY_FIELDS.items():
        assert set(names) <= fields if other == system else not set(names) & fields, other
    assert ("rating_class" in fields) == (system in ("egf", "wfcc"))
    assert client.get(ADD).context["adminform"].form.initial["federation"] == federation.pk


def test_a_superuser_sees_every_field(client):
    client.force_login(make_user("root", superuser=True))
    fields = _form_fields(client)
    assert all(set(names) <= fields for names in SYSTEM_ONLY_FIELDS.values())


def test_the_egf_import_is_offered_to_egf_officials_only(client):
    egf = Federation.objects.create(code="f-egf", name="EGF", system="egf")
    iccf = Federation.objects.create(code="f-iccf", name="ICCF", system="iccf")
    client.force_login(make_official("o-iccf", iccf))
    assert (
        "Import EGF results table" not in client.get("/admin/tournaments/event/").content.decode()
    )
    assert client.get("/admin/tournaments/event/import-egf/").status_code == 403
    client.force_login(make_official("o-egf", egf))
    assert "Import EGF results table" in client.get("/admin/tournaments/event/").content.decode()
    assert client.get("/admin/tournaments/event/import-egf/").status_code == 200
