"""Shared test helpers: where the reference data is, and skipping when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

REFERENCE = Path(__file__).resolve().parents[1].parent / "shared" / "reference"


def reference(*parts: str) -> Path:
    """A path inside ../shared/reference; skips the test (saying why) when it is absent."""
    path = REFERENCE.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"reference data absent: {path}")
    return path
