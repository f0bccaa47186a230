"""What users see, as plain data: message text, embeds and button specs.

Nothing here imports discord; the cogs turn these specs into discord.py objects.
"""
