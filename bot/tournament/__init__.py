"""Tournaments: registration, a single- or double-elimination bracket, ready
checks and advancing, as a pure value changed by one event at a time.

No Discord, no I/O: the store logs the events, the Discord layer turns
clicks and timers into them (see :mod:`bot.tournament.state`).
"""
