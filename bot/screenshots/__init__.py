"""``python -m bot screenshots``: the real bot plays a scripted game in SimCord and each key
screen is rendered by SimCord's preview in headless Chromium (the ``screenshots`` extra)."""
