"""Clicks that reach the bot together: a real double click, or two people at
the same instant. Every click is sent before the bot answers any."""

from __future__ import annotations

from typing import Any

import simcord.interactions as simcord_interactions
from simcord import MemberActor
from simcord.actors import _visible_message
from simcord.backend import serializers
from simcord.enums import InteractionType
from simcord.results import InteractionResult

from tests.discord.harness import World, buttons_of


async def together(
    world: World, clicks: list[tuple[MemberActor, Any, str]]
) -> list[InteractionResult]:
    """Each ``(user, message, custom_id)`` clicked, all sent before any is answered."""
    env = world.env
    backend = env.backend
    payloads, records = [], []
    for user, message, custom_id in clicks:
        stored = _visible_message(user, message)
        record, payload = simcord_interactions.base_payload(
            backend,
            type=InteractionType.MESSAGE_COMPONENT,
            channel_id=stored.channel_id,
            guild_id=world.guild.id,
            user_id=user.id,
            data={"custom_id": custom_id, "component_type": 2},
        )
        payload["message"] = dict(serializers.message_payload(backend, stored))
        record.source_message_id = stored.id
        env._notify_dispatch_observers(record)
        payloads.append(payload)
        records.append(record)
    for payload in payloads:
        backend.emit("INTERACTION_CREATE", payload)
    await env._settle_internal(dispatch="INTERACTION_CREATE")
    return [InteractionResult(env, r) for r in records]


def custom_id(message: Any, label: str) -> str:
    """The id of ``message``'s button labelled ``label``."""
    return next(b.custom_id for b in buttons_of(message) if b.label == label)
