"""The errors every part of the store raises, whichever database is behind it."""

from __future__ import annotations


class StoreError(Exception):
    """A problem with the database itself (not a refused action)."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot."""


class VersionConflict(StoreError):
    """Another writer changed the table first; nothing was written."""


class ChannelTaken(StoreError):
    """Another open table already holds the channel. Nothing was written."""


class IntegrityFailure(StoreError):
    """The database refused a write (unique key, append-only log, version check); nothing kept."""


class DatabaseAway(StoreError):
    """The server is unreachable; a write's outcome is unknown. The store reconnects itself."""
