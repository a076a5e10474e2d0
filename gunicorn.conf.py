"""gunicorn's settings, read from the working directory (`gunicorn federation.wsgi:application`
run at the repository root; DEPLOYMENT.md).

Each worker freezes what it holds once the site is loaded (gc.freeze()): the modules, URL
patterns, compiled templates and the like, about 136,000 objects, are then skipped by the garbage
collector. A full collection that walked them took 84 ms on a 2-core test machine, in the
middle of whichever request was running; frozen, under 0.1 ms.

The site's processes bind query values server-side unless told otherwise
(DATABASE_SERVER_SIDE_BINDING, federation/settings.py): psycopg then prepares each statement and
PostgreSQL plans it once per connection. The player page's four queries ran in 0.9 ms instead of
4.5 ms (bench medians: player 32.8 -> 25.8 ms, list 21.7 -> 18.0, API 13.1 -> 10.3). Only here:
Django's migrations fail with it (an added foreign key is two commands in one statement).
"""

import gc
import os

os.environ.setdefault("DATABASE_SERVER_SIDE_BINDING", "1")


def post_worker_init(worker):
    """After the worker loaded the application (post_fork runs before it, when nothing is
    loaded yet unless preload_app is on)."""
    gc.freeze()
