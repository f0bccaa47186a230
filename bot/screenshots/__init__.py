"""``python -m bot screenshots``: the bot's key screens in SimCord, rendered by Chromium."""
