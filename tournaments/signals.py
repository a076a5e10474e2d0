"""Signals of the tournaments app for writes that send no model signals.

``results_written`` is sent after a bulk write (``bulk_create``, ``QuerySet.update``) of results
or other rating input, which Django's ``post_save``/``post_delete`` do not see. The ratings app
listens (``ratings.services.input_watch``) and marks the periods whose runs read those events.
Arguments: ``sender`` the model written, ``event_ids`` the events concerned, ``description`` a
sentence for the official ("12 games imported from T250111B.h9").
"""

from django.dispatch import Signal

results_written = Signal()
