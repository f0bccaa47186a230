"""The coach: hints on turn and reviews of finished hands, from what one person may know."""
