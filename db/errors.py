"""The errors every part of the store raises, whichever database is behind it."""

from __future__ import annotations


class StoreError(Exception):
    """A problem with the database itself (not a refused action)."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot."""


class VersionConflict(StoreError):
    """The table's stored version is not the one the write was based on:
    another writer got there first. Nothing was written."""


class ChannelTaken(StoreError):
    """Another open table already holds the channel. Nothing was written."""


class IntegrityFailure(StoreError):
    """The database refused a write that breaks one of its rules (a unique
    key, the append-only log, a version check); nothing of it was written.
    The message is the database's own."""


class DatabaseAway(StoreError):
    """The database server cannot be reached right now (restarting, network
    cut). A read was not answered; a write either was not made or its outcome
    is unknown, so whatever the caller holds of the table may be outdated.
    The store reconnects by itself: try again in a moment."""
