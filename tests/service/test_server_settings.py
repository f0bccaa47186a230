"""A server's settings as the core reads them: stored on either database,
and its defaults applied under a host's choices."""

from __future__ import annotations

import pytest

from bot.refusals import Malformed
from bot.servers import ServerSettings, ServerSettingsService
from tests.backends import Backend


def test_the_hosts_choices_win_over_the_servers_defaults() -> None:
    settings = ServerSettings(defaults={"target": 250, "revokes": "blocked", "hints": True})
    options = settings.table_options(target=None, revokes="allowed", hints=None)
    assert (options.target, options.revokes, options.hints) == (250, "allowed", True)


def test_defaults_this_version_refuses_leave_the_hosts_choices() -> None:
    settings = ServerSettings(defaults={"preset": "gone", "target": 250})
    options = settings.table_options(target=None)
    assert (options.preset, options.target) == ("standard", 500)
    with pytest.raises(Malformed):
        settings.table_options(target=300)  # the host's own bad choice is still refused


async def test_settings_are_kept_per_server_on_both(backend: Backend) -> None:
    store = await backend.open()
    try:
        service = ServerSettingsService(store, lambda: 1.0)
        assert await service.of(10) == ServerSettings()
        assert await service.of(None) == ServerSettings()
        await service.change(10, channels=(1, 2), host_role=3)
        await service.change(10, defaults={"target": 250})
        await service.change(20, notify_role=4)
        assert await service.of(10) == ServerSettings(
            channels=(1, 2), host_role=3, defaults={"target": 250}
        )
        assert await service.of(20) == ServerSettings(notify_role=4)
        # A document a newer version wrote: its unknown keys are left alone.
        await store.set_server_settings(30, {"host_role": 5, "later": True}, 2.0)
        assert await service.of(30) == ServerSettings(host_role=5)
    finally:
        await store.close()
