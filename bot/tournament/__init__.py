"""Tournaments: registration, a single- or double-elimination bracket, ready
checks and advancing.

The core is pure, with no Discord and no I/O: a tournament is a value changed
by one event at a time.

- :mod:`~bot.tournament.model`: the frozen types and :func:`new_tournament`.
- :mod:`~bot.tournament.events`: the events, their stored JSON form, and
  :class:`TournamentRefusal` with its codes.
- :mod:`~bot.tournament.state`: ``apply(t, event, now)``.
- :mod:`~bot.tournament.bracket`: seeding, the bracket's layout, the final
  standings, and what the game layer does next (ready checks to post,
  tables to open).

Around it, the modules that do I/O (the store, the tables; still no
Discord, which the cogs bring):

- :mod:`~bot.tournament.service`: runs every tournament: commits each event
  with the time it was applied at, keeps the ready checks' deadlines, ends
  the tables a decision or a cancel takes away, and follows up on what the
  committed state calls for.
- :mod:`~bot.tournament.match_tables`: opens a match's table once, whatever
  stops the process on the way.
- :mod:`~bot.tournament.results`: a tournament rebuilt from its stored log,
  and a player's places in the finished ones.
"""
