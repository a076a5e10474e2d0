"""The site package and the federation app (players, officials, audit)."""

from .celery import app as celery_app

__all__ = ["celery_app"]
