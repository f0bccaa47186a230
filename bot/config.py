"""Settings of the bot: one TOML file, one typed class per section.

Precedence: values in code, ``DISCORD_TOKEN``, ``SPADES_<SECTION>__<KEY>`` variables, the
TOML file, the defaults (documented in ``config.example.toml``)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
    TomlConfigSettingsSource,
)

from bot.clock import ClockSettings
from bot.shards import ALL_SHARDS, Shards, format_shard_ids, parse_shard_ids
from db.targets import check_target, is_postgres, sqlite_path

DEFAULT_CONFIG = Path("config.toml")
TOKEN_VARIABLE = "DISCORD_TOKEN"


class ConfigError(Exception):
    """A setting the bot cannot start with; the message says what to fix."""


class Section(BaseModel):
    # A misspelt key is an error, not a silently ignored line.
    model_config = ConfigDict(extra="forbid", frozen=True)


class DiscordSettings(Section):
    token: SecretStr | None = None
    # The outbox's budgets, under Discord's limits so no request meets a 429 (0: off).
    table_edits_per_channel_s: float = Field(1.0, ge=0, le=60)
    rest_per_s: float = Field(35.0, ge=0)
    # Discord caps edits of messages older than an hour (code 30046) per channel (0: off).
    old_message_edits: int = Field(3, ge=0, le=50)
    old_message_edits_window_s: float = Field(6.0, ge=0, le=3600)
    # This process connects the shards ``shard_ids`` of ``shard_count`` (unset: all, unsharded).
    shard_count: int | None = Field(None, ge=1)
    shard_ids: tuple[int, ...] | str | None = None

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, ids: Any, info: ValidationInfo) -> Any:
        """One number, a text like "0-3" or "0,2", or a list: a sorted tuple."""
        if isinstance(ids, int) and not isinstance(ids, bool):
            ids = [ids]
        elif isinstance(ids, str):
            count = info.data.get("shard_count")
            if count is None:  # missing or refused: that is the problem to report
                return ids
            ids = parse_shard_ids(ids, count)
        if isinstance(ids, list | tuple | set | frozenset):
            if not ids:
                raise ValueError("shard_ids lists no shard")
            if all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
                return tuple(sorted(set(ids)))
        return ids

    @model_validator(mode="after")
    def _shards_exist(self) -> DiscordSettings:
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("shard_ids needs shard_count (how many shards the bot has in all)")
        self.shards  # noqa: B018 - raises ValueError naming a shard that does not exist
        return self

    @property
    def sharded(self) -> bool:
        """Whether the bot runs as a sharded client (shard settings given)."""
        return self.shard_count is not None

    @property
    def shards(self) -> Shards:
        """The shards this process connects (every one without the settings)."""
        if self.shard_count is None:
            return ALL_SHARDS
        ids = self.shard_ids if self.shard_ids is not None else range(self.shard_count)
        assert not isinstance(ids, str)  # parsed by _shard_list
        return Shards(self.shard_count, frozenset(ids))


class DatabaseSettings(Section):
    # sqlite:///path or postgresql://...; unset, the SQLite file at ``path`` (as before).
    url: str | None = None
    path: Path = Path("spades.db")

    @field_validator("url")
    @classmethod
    def _known_database(cls, url: str | None) -> str | None:
        return None if url is None else check_target(url)

    @property
    def target(self) -> str:
        """What the store opens: the URL, or else the file at ``path``."""
        return self.url if self.url is not None else str(self.path)

    @property
    def sqlite_file(self) -> Path | None:
        """The SQLite file; None on PostgreSQL."""
        if self.url is None:
            return self.path
        return None if is_postgres(self.url) else sqlite_path(self.url)


class TableSettings(Section):
    computer_delay_s: float = Field(2.0, ge=0, le=60)
    computer_level: str = "random"
    # Earlier names of [clock] first_notice(_s), still read (Settings._one_place_each).
    turn_ping: bool | None = None
    turn_ping_delay_s: float | None = Field(None, ge=0, le=3600)
    #: How long a finished table's thread stays open for a rematch.
    thread_archive_after_s: float = Field(600.0, ge=0, le=7 * 24 * 3600)

    @field_validator("computer_level")
    @classmethod
    def _known_level(cls, level: str) -> str:
        from bot.ai.base import known_level

        return known_level(level)  # a file written for a retired level still loads


class LoggingSettings(Section):
    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"


class HealthSettings(Section):
    heartbeat_every_s: float = Field(30.0, gt=0)
    # ``python -m bot health`` fails once the heartbeat is older than this.
    stale_after_s: float = Field(120.0, gt=0)


class MetricsSettings(Section):
    # The port of the Prometheus endpoint (http://host:port/metrics); 0: none.
    port: int = Field(0, ge=0, le=65535)
    # The address it listens on; 0.0.0.0 for every interface (in a container).
    address: str = "0.0.0.0"


#: [tables] keys read into [clock]: (the key in [tables], the key in [clock]).
_FROM_TABLES = (
    ("computer_delay_s", "computer_delay_s"),
    ("turn_ping", "first_notice"),
    ("turn_ping_delay_s", "first_notice_s"),
)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        extra="forbid",
        frozen=True,
        env_prefix="SPADES_",
        env_nested_delimiter="__",
    )

    discord: DiscordSettings = DiscordSettings()
    database: DatabaseSettings = DatabaseSettings()
    tables: TableSettings = TableSettings()
    # The turn clock's own section class (turn notices, claims, computer moves).
    clock: ClockSettings = ClockSettings()
    logging: LoggingSettings = LoggingSettings()
    health: HealthSettings = HealthSettings()
    metrics: MetricsSettings = MetricsSettings()

    @model_validator(mode="before")
    @classmethod
    def _one_place_each(cls, data: Any) -> Any:
        """[tables] keys the clock reads unless [clock] names its own (as earlier versions did)."""
        if not isinstance(data, dict):
            return data
        tables = data.get("tables")
        clock = data.get("clock")
        if not isinstance(clock, dict | None):
            return data
        if isinstance(tables, dict):
            try:
                tables = TableSettings.model_validate(tables)
            except ValidationError:
                # Reported once, in [tables] where it was written.
                return data
            data = {**data, "tables": tables}
        moved = dict(clock or {})
        for table_key, clock_key in _FROM_TABLES:
            value = getattr(tables, table_key) if isinstance(tables, TableSettings) else None
            if value is not None and clock_key not in moved:
                moved[clock_key] = value
        return {**data, "clock": moved} if moved or clock is not None else data

    @property
    def heartbeat_path(self) -> Path:
        """The file the bot touches while connected, one per process of a sharded bot."""
        file = self.database.sqlite_file or self.database.path
        name = file.name
        if self.discord.sharded:
            shards = self.discord.shards
            name += f".shards-{format_shard_ids(shards.ids)}-of-{shards.count}"
        return file.with_name(name + ".heartbeat")

    def token(self) -> str:
        secret = self.discord.token
        value = secret.get_secret_value().strip() if secret is not None else ""
        if not value:
            raise ConfigError(
                f"no Discord bot token: set the {TOKEN_VARIABLE} environment variable "
                "or token in the [discord] section of the config file"
            )
        return value


class _TokenFromEnvironment(PydanticBaseSettingsSource):
    """``DISCORD_TOKEN``: the conventional name, outside the ``SPADES_`` prefix."""

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # unused: __call__ returns the whole mapping

    def __call__(self) -> dict[str, Any]:
        token = os.environ.get(TOKEN_VARIABLE)
        return {"discord": {"token": token}} if token else {}


def load_settings(path: Path | None = None, **overrides: Any) -> Settings:
    """Read the settings (default ``config.toml`` if it exists); raises a one-line ConfigError."""
    explicit = path is not None
    file = path if path is not None else DEFAULT_CONFIG
    if explicit and not file.is_file():
        raise ConfigError(f"config file {file} not found")
    toml_file = file if file.is_file() else None

    class _FileSettings(Settings):
        @classmethod
        def settings_customise_sources(
            cls,
            settings_cls: type[BaseSettings],
            init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
        ) -> tuple[PydanticBaseSettingsSource, ...]:
            sources: list[PydanticBaseSettingsSource] = [
                init_settings,
                _TokenFromEnvironment(settings_cls),
                env_settings,
            ]
            if toml_file is not None:
                sources.append(TomlConfigSettingsSource(settings_cls, toml_file=toml_file))
            return tuple(sources)

    try:
        return _FileSettings(**overrides)
    except ValidationError as exc:
        # Without a file the value came from the environment or the command line.
        source = file if toml_file is not None else "settings"
        raise ConfigError(f"{source}: {_first_problem(exc)}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{file} is not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{file} is not valid TOML: it is not saved as UTF-8 text") from None
    except SettingsError as exc:
        # A list or a section given in an environment variable is read as JSON.
        raise ConfigError(
            f"{exc}: a list or section in a SPADES_ variable is written in JSON,"
            ' like [0.5, 0.75] or {"shard_count": 2}'
        ) from None
    except OSError as exc:
        raise ConfigError(f"cannot read {file}: {exc.strerror}") from None


def _first_problem(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"]) or "settings"
    if error["type"] == "extra_forbidden":
        return f"unknown setting {where}"
    message = error["msg"].removeprefix("Value error, ")
    bad = error.get("input")
    if isinstance(bad, str | int | float | bool) and error["type"] != "value_error":
        message += f" (got {bad!r})"
    more = exc.error_count() - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return f"{where}: {message}{tail}"
