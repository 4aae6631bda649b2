"""The web app's database: which file it is, the one :class:`~tilelay.store.Store` opened per
file (shared by the handlers of saved boards, records and games), and the answer each store
error gets."""

from __future__ import annotations

import threading
from pathlib import Path

from starlette.requests import Request

from tilelay.store import Conflict, Store, StoreError, default_path
from tilelay.web.errors import WebError

__all__ = ["get_store", "store_error", "store_path"]

_STORES: dict[Path, Store] = {}
_STORES_LOCK = threading.Lock()


def store_path(request: Request) -> Path:
    """The database file of the app (``create_app(db=…)``, else :func:`default_path`)."""
    path = getattr(request.app.state, "db_path", None)
    return Path(path) if path is not None else default_path()


def get_store(request: Request) -> Store:
    """The app's store (opened on first use; one per database file)."""
    path = store_path(request)
    with _STORES_LOCK:
        store = _STORES.get(path)
        if store is None:
            store = _STORES[path] = Store(path)
        return store


def store_error(err: StoreError) -> WebError:
    """The answer to a store error: 409 (conflict), 503 (the database), else 400/413."""
    if isinstance(err, Conflict):
        return WebError(err.message, 409)
    if err.source is not None:
        return WebError(f"the database cannot be used now: {err.message}", 503)
    return WebError(err.message, 413 if "too large" in err.message else 400)
