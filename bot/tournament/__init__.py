"""Tournaments: registration, a single- or double-elimination bracket, ready
checks and advancing, as a pure value changed by one event at a time.

No Discord, no I/O: the store logs each event with the time it was applied
at, the Discord layer turns clicks and timers into events.

- :mod:`~bot.tournament.model`: the frozen types and :func:`new_tournament`.
- :mod:`~bot.tournament.events`: the events, their stored JSON form, and
  :class:`TournamentRefusal` with its codes.
- :mod:`~bot.tournament.state`: ``apply(t, event, now)``.
- :mod:`~bot.tournament.bracket`: seeding, the bracket's layout, the final
  standings, and what the game layer does next (ready checks to post,
  tables to open).
"""
