"""Replays of finished games: frames one trick apart, with the coach's marks."""
