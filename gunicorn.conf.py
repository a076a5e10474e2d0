"""gunicorn's settings, read from the working directory (`gunicorn federation.wsgi:application`
run at the repository root; DEPLOYMENT.md).

Each worker freezes what it holds once the site is loaded (gc.freeze()): the modules, URL
patterns, compiled templates and the like, about 136,000 objects, are then skipped by the garbage
collector. A full collection that walked them took 84 ms on a 2-core test machine, in the
middle of whichever request was running; frozen, under 0.1 ms.
"""

import gc


def post_worker_init(worker):
    """After the worker loaded the application (post_fork runs before it, when nothing is
    loaded yet unless preload_app is on)."""
    gc.freeze()
