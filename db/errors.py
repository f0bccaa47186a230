"""The errors every part of the store raises."""

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
