import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
django.setup(set_prefix=False)  # as django.core.wsgi.get_wsgi_application

from federation.cycle_free import WSGIHandler  # noqa: E402 (needs the settings)

application = WSGIHandler()
