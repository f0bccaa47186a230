"""The coach: hints from the search player for the seat on turn, and a
review of each hand for the people who asked for one.

Everything here works from what one person may know: a hint from their
seat's :class:`~bot.game.view.PlayerView` only, a review from a hand that is
over (when every card of it has been seen). The words are in
:mod:`bot.render.coach_text`; this package decides what to say.
"""
