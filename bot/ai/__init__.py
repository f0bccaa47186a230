"""Computer players. Each sees a :class:`~bot.game.view.PlayerView` only and
returns an action for its seat."""
