"""The PostgreSQL tests are skipped only where no server can be had, and
never in CI: there a missing server fails them."""

from __future__ import annotations

import pytest

from tests.backends import REQUIRE_VARIABLE, need_server


def test_without_a_server_the_postgresql_tests_skip_or_fail_in_ci(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(REQUIRE_VARIABLE, raising=False)
    with pytest.raises(pytest.skip.Exception, match="no PostgreSQL server"):
        need_server(None)
    monkeypatch.setenv(REQUIRE_VARIABLE, "1")
    with pytest.raises(pytest.fail.Exception, match=f"{REQUIRE_VARIABLE}=1"):
        need_server(None)
