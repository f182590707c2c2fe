"""Django's gzip of responses, less the game's streams of changes (``text/event-stream``).

A stream's events are small and far apart: compressing them saves next to nothing, and each open
stream would hold a compressor of its own (a few hundred kilobytes) for as long as it lasts.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware as DjangoGZipMiddleware


class GZipMiddleware(DjangoGZipMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)
