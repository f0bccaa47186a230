"""Headless Chromium over the DevTools protocol, for SimCord's preview captures.

SimCord's own renderer needs Playwright and a browser it downloads; this one drives Debian's
``chromium`` over ``--remote-debugging-pipe`` (NUL-separated JSON on fds 3 and 4, no port),
with the same preview page, readiness signal and crop."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import fcntl
import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from simcord.preview import Preview
from simcord.preview._capture import CapturePin, ManagedCapture

#: Names the Debian and other distributions' packages give the browser.
BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome")
BROWSER_FLAGS = (
    "--headless",
    "--remote-debugging-pipe",
    "--no-sandbox",  # root in containers; the page is our own, served on loopback
    "--disable-gpu",
    "--hide-scrollbars",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-background-networking",
    "--mute-audio",
    "--force-color-profile=srgb",
    # A mouse, as on desktop Discord, so hover-only controls stay hidden.
    "--blink-settings=primaryHoverType=2,availableHoverTypes=2,"
    "primaryPointerType=4,availablePointerTypes=4",
)
#: How long one page may take to load and settle before the capture gives up.
PAGE_DEADLINE_S = 30.0
READY = "window.simcordPreview && window.simcordPreview.ready === true"
FREEZE = """document.querySelectorAll('*').forEach((element) => {
  element.style.setProperty('animation-play-state', 'paused', 'important');
  element.style.setProperty('transition', 'none', 'important');
  element.style.setProperty('caret-color', 'transparent', 'important');
});
document.getAnimations?.().forEach((animation) => animation.cancel());"""
TWO_FRAMES = (
    "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"
)


class BrowserMissing(RuntimeError):
    """No Chromium on this machine (the message says how to install it)."""


class BrowserFailed(RuntimeError):
    """Chromium answered a command with an error, or a page never became ready."""


def find_browser() -> str:
    override = os.environ.get("SPADES_CHROMIUM")
    for name in (override,) if override else BROWSER_NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise BrowserMissing(
        "screenshots need headless Chromium: install it with `apt-get install -y chromium` "
        "(or point SPADES_CHROMIUM at a Chromium binary)"
    )


def _pipe_above_four(*, reading_end: bool) -> tuple[int, int]:
    """A pipe whose end for the child (read or write) has a number above 4."""
    read, write = os.pipe()
    child = read if reading_end else write
    moved = fcntl.fcntl(child, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(child)
    return (moved, write) if reading_end else (read, moved)


class Browser:
    """One Chromium process; ``call`` sends a DevTools command and awaits its answer."""

    def __init__(self, process: asyncio.subprocess.Process, to_browser: int) -> None:
        self._process = process
        self._to_browser = to_browser
        self._reader: asyncio.StreamReader | None = None
        self._next_id = 0
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._events: dict[tuple[str, str], asyncio.Queue[dict[str, Any]]] = {}
        self._listener: asyncio.Task[None] | None = None
        self._profile = ""

    @classmethod
    async def launch(cls, executable: str | None = None) -> Browser:
        binary = executable or find_browser()
        profile = tempfile.mkdtemp(prefix="spades-chromium-")
        # Chromium reads fd 3 and writes fd 4; the ends move above 4 first so none overwrites.
        commands_read, commands_write = _pipe_above_four(reading_end=True)
        answers_read, answers_write = _pipe_above_four(reading_end=False)

        def wire_pipes() -> None:  # in the child, before exec: the pipes become fds 3 and 4
            os.dup2(commands_read, 3)
            os.dup2(answers_write, 4)

        try:
            process = await asyncio.create_subprocess_exec(
                binary,
                *BROWSER_FLAGS,
                f"--user-data-dir={profile}",
                "about:blank",
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
                # close_fds would close 3 and 4; Python's own fds are not inheritable.
                close_fds=False,
                preexec_fn=wire_pipes,
            )
        except OSError as exc:
            shutil.rmtree(profile, ignore_errors=True)
            raise BrowserMissing(f"could not start {binary}: {exc.strerror}") from exc
        finally:
            os.close(commands_read)
            os.close(answers_write)
        browser = cls(process, commands_write)
        browser._profile = profile
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=64 * 1024 * 1024)
        await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(answers_read, "rb", 0)
        )
        browser._reader = reader
        browser._listener = asyncio.create_task(browser._listen())
        return browser

    async def _listen(self) -> None:
        assert self._reader is not None
        while True:
            try:
                raw = await self._reader.readuntil(b"\0")
            except (asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                break
            message = json.loads(raw[:-1])
            if "id" in message:
                waiter = self._waiting.pop(message["id"], None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(message)
            else:
                queue = self._events.get((message.get("sessionId", ""), message["method"]))
                if queue is not None:
                    queue.put_nowait(message.get("params", {}))
        for waiter in self._waiting.values():
            if not waiter.done():
                waiter.set_exception(BrowserFailed("Chromium closed its DevTools pipe"))

    async def call(
        self, method: str, params: Mapping[str, Any] | None = None, session: str = ""
    ) -> dict[str, Any]:
        if self._listener is None or self._listener.done():
            raise BrowserFailed("Chromium closed its DevTools pipe")
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        waiter = asyncio.get_running_loop().create_future()
        self._waiting[self._next_id] = waiter
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        answer = await waiter
        if "error" in answer:
            raise BrowserFailed(f"{method}: {answer['error'].get('message', answer['error'])}")
        result: dict[str, Any] = answer.get("result", {})
        return result

    def events(self, session: str, method: str) -> asyncio.Queue[dict[str, Any]]:
        return self._events.setdefault((session, method), asyncio.Queue())

    async def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._to_browser)
        with contextlib.suppress(ProcessLookupError):
            self._process.terminate()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._process.wait(), 10)
        if self._process.returncode is None:
            self._process.kill()
            await self._process.wait()
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.gather(self._listener, return_exceptions=True)
        shutil.rmtree(self._profile, ignore_errors=True)


class Tab:
    """One page of the browser, attached in flat mode (commands carry its session)."""

    def __init__(self, browser: Browser, target: str, session: str) -> None:
        self.browser = browser
        self.target = target
        self.session = session

    @classmethod
    async def open(cls, browser: Browser) -> Tab:
        target = (await browser.call("Target.createTarget", {"url": "about:blank"}))["targetId"]
        attached = await browser.call(
            "Target.attachToTarget", {"targetId": target, "flatten": True}
        )
        return cls(browser, target, attached["sessionId"])

    async def call(self, method: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return await self.browser.call(method, params, self.session)

    async def evaluate(self, expression: str) -> Any:
        answer = await self.call(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": True, "returnByValue": True},
        )
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise BrowserFailed(f"page script failed: {text}")
        return answer.get("result", {}).get("value")

    async def close(self) -> None:
        await self.browser.call("Target.closeTarget", {"targetId": self.target})


class ChromiumCapture(ManagedCapture):
    """SimCord's capture manager rendering the pinned page in Chromium, frozen and cropped."""

    def __init__(self, preview: Preview, browser: Browser) -> None:
        super().__init__(preview)
        self.browser = browser

    async def render(
        self, pin: CapturePin, destination: Path, *, mode: str, allow_incomplete: bool
    ) -> dict[str, Any]:
        profile = dict(pin.profile)
        width, height = self._validate_dimensions(profile.get("width"), profile.get("height"))
        tab = await Tab.open(self.browser)
        try:
            async with asyncio.timeout(PAGE_DEADLINE_S):
                status = await self._load(tab, pin, profile, width, height)
                diagnostics = self._diagnostics(status)
                complete = bool(status.get("complete", True))
                if not complete and not allow_incomplete:
                    detail = "; ".join(str(item.get("message", "")) for item in diagnostics)
                    raise BrowserFailed(f"the preview page is incomplete ({detail})")
                await tab.evaluate(f"(() => {{ {FREEZE} return true; }})()")
                await tab.evaluate(TWO_FRAMES)
                arguments = json.dumps(
                    {"mode": mode, "modal": pin.modal_id is not None, "targetId": pin.target_id}
                )
                geometry = await tab.evaluate(
                    f"import('/geometry.js').then(m => m.captureGeometry({arguments}))"
                )
                if not isinstance(geometry, dict):
                    raise BrowserFailed("the preview page shows no message to capture")
                crop = json.dumps(geometry["visibleCrop"])
                clip = await tab.evaluate(f"import('/geometry.js').then(m => m.rasterCrop({crop}))")
                self._validate_dimensions(clip["width"], clip["height"])
                self.preview._assert_capture_live(pin.page)
                shot = await tab.call(
                    "Page.captureScreenshot",
                    {"format": "png", "clip": {**clip, "scale": 1}, "fromSurface": True},
                )
        except TimeoutError as exc:
            raise BrowserFailed("the preview page did not become ready in time") from exc
        finally:
            await tab.close()
        destination.write_bytes(base64.b64decode(shot["data"]))
        return {
            "path": str(destination),
            "published_revision": pin.published_revision,
            "render_generation": int(status.get("renderGeneration", 0) or 0),
            "viewer_id": pin.viewer_id,
            "channel_id": pin.channel_id,
            "target_id": pin.target_id,
            "modal_id": pin.modal_id,
            "mode": mode,
            "output_width": clip["width"],
            "output_height": clip["height"],
            "complete": complete,
            "ready": bool(status.get("ready", False)),
            "calibrated": False,
            "calibration": dict(status.get("calibration", {})),
            "profile": profile,
            "geometry": {**geometry, "viewportWidth": width, "viewportHeight": height},
            "action": None,
            "media_metadata": {},
            "diagnostics": diagnostics,
        }

    async def _load(
        self, tab: Tab, pin: CapturePin, profile: Mapping[str, Any], width: int, height: int
    ) -> dict[str, Any]:
        """Open the preview page with the pinned projection; its status once ready."""
        origin = self.preview._origin
        await tab.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        await tab.call(
            "Emulation.setEmulatedMedia",
            {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]},
        )
        await tab.call("Emulation.setTimezoneOverride", {"timezoneId": profile["timezone"]})
        await tab.call("Emulation.setLocaleOverride", {"locale": profile["locale"]})
        await tab.call("Network.enable")
        await tab.call(
            "Network.setExtraHTTPHeaders",
            {"headers": {"X-Simcord-Capability": self.preview.capability}},
        )
        paused = tab.browser.events(tab.session, "Fetch.requestPaused")
        await tab.call(
            "Fetch.enable",
            {"patterns": [{"urlPattern": f"{origin}/api/pages", "requestStage": "Request"}]},
        )
        answering = asyncio.create_task(self._answer_with_pin(tab, paused, pin))
        try:
            await tab.call("Page.navigate", {"url": f"{origin}/#{self.preview.capability}"})
            while not await tab.evaluate(f"Boolean({READY})"):
                await asyncio.sleep(0.05)
        finally:
            answering.cancel()
            await asyncio.gather(answering, return_exceptions=True)
        status = await tab.evaluate("window.simcordPreview")
        if not isinstance(status, dict) or not status.get("authorized"):
            raise BrowserFailed("the preview page was not authorized")
        return status

    @staticmethod
    async def _answer_with_pin(
        tab: Tab, paused: asyncio.Queue[dict[str, Any]], pin: CapturePin
    ) -> None:
        """Answer the page's request for its context with the pinned projection."""
        body = json.dumps(pin.snapshot, separators=(",", ":"), ensure_ascii=False).encode()
        while True:
            request = await paused.get()
            await tab.call(
                "Fetch.fulfillRequest",
                {
                    "requestId": request["requestId"],
                    "responseCode": 200,
                    "responseHeaders": [
                        {"name": "Content-Type", "value": "application/json; charset=utf-8"},
                        {"name": "Cache-Control", "value": "no-store"},
                    ],
                    "body": base64.b64encode(body).decode(),
                },
            )

    async def close(self) -> None:
        """The browser outlives one preview: its owner closes it."""
