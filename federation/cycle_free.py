"""A page's request and rendering that leave no reference cycle behind.

Django's template rendering and its request make cycles: the context holds the dictionary it
pushed, which holds the context (make_context), and the request holds its message storage and
its lazy user, which hold the request (MessageMiddleware, AuthenticationMiddleware). Everything
a page reached from them, its rows and their objects, then outlives the request until the
garbage collector finds it: on the player page 92 objects a request, and over 600 of the
benchmark's player pages 39 collections of the youngest objects (0.2 ms each), 4 of the older
(0.5 ms) and one of all (70 ms), each in the middle of whichever request was running. Without
the cycles reference counting frees them as the page is done: one collection (0.1 ms) in 600
pages (tests/site/test_no_reference_cycles.py).
"""

from __future__ import annotations

from django.core.handlers import wsgi
from django.template import TemplateDoesNotExist
from django.template.backends import django as django_backend
from django.template.backends.django import reraise
from django.template.context import make_context


class Template(django_backend.Template):
    def render(self, context=None, request=None):
        # As Django's, which keeps no handle on the context it makes.
        context = make_context(context, request, autoescape=self.backend.engine.autoescape)
        try:
            return self.template.render(context)
        except TemplateDoesNotExist as exc:
            reraise(exc, self.backend)
        finally:
            context.dicts.clear()  # each pushed dictionary refers back to the context


class DjangoTemplates(django_backend.DjangoTemplates):
    """Django's template engine, rendering with Template above."""

    def from_string(self, template_code):
        return Template(self.engine.from_string(template_code), self)

    def get_template(self, template_name):
        try:
            return Template(self.engine.get_template(template_name), self)
        except TemplateDoesNotExist as exc:
            reraise(exc, self)


# Set on a request by middleware, each referring back to the request.
REFERRING_BACK = ("_messages", "user", "auser")


class WSGIRequest(wsgi.WSGIRequest):
    def close(self):
        """Called as the server closes the response: the page is sent and logged."""
        super().close()
        for name in REFERRING_BACK:
            self.__dict__.pop(name, None)


class WSGIHandler(wsgi.WSGIHandler):
    request_class = WSGIRequest
