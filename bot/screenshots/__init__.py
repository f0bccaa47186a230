"""``python -m bot screenshots``: pictures of the bot's key screens, as Discord shows them.

The real bot plays a scripted game in SimCord (:mod:`bot.screenshots.scenes`);
each screen is projected by SimCord's preview and rendered in headless
Chromium (:mod:`bot.screenshots.album`, :mod:`bot.screenshots.chromium`).
Needs the ``screenshots`` extra and Debian's ``chromium`` package.
"""
