"""The coach: hints for the seat on turn and reviews of finished hands, each from what one
person may know; the words are in :mod:`bot.render.coach_text`."""
