"""Jinja2 templates of the web app, loaded from the package's own ``templates`` folder."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse

__all__ = ["environment", "render"]


@cache
def environment() -> jinja2.Environment:
    """The Jinja2 environment (autoescaping on; SVG is passed in as ``Markup``)."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("tilelay.web", "templates"),
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )


def render(
    request: Request,
    template: str,
    context: dict[str, Any],
    *,
    status_code: int = 200,
    headers: Mapping[str, str] | None = None,
) -> HTMLResponse:
    """Render ``template`` with ``context`` (plus ``request`` and ``path``) as an HTML page
    (with ``headers``, if any)."""
    page = (
        environment()
        .get_template(template)
        .render(request=request, path=request.url.path, **context)
    )
    return HTMLResponse(page, status_code=status_code, headers=headers)
