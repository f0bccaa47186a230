"""Ratings, statistics, leaderboard pages, game history and the score picture."""
