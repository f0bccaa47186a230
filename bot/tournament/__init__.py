"""Tournaments: registration, single or double elimination, ready checks and advancing.

The core (model, events, state, bracket) is pure: a tournament is a value changed by one
event at a time. The service, match tables and results do the I/O; the cogs bring Discord."""
