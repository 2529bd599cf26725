"""One Arena episode on a releaseops env server over OpenEnv's ``/ws`` wire, standard library only.

A WebSocket connection *is* a session on the server: ``{"type": "reset", "data": {seed, options}}``, then
``{"type": "step", "data": {"tool": name, "arguments": {...}}}`` per call, each answered with
``{"type": "observation", "data": {observation, reward, done, metadata: {text, info, ...}}}``; an
``{"type": "error"}`` reply raises. ``close()`` ends the session as OpenEnv's own client does: the
``{"type": "close"}`` message, then the WebSocket closing handshake, so the server counts a client close
rather than a lost connection. A rollout keeps its episode on one server process for its whole life,
whatever balancer or ``--workers`` sits behind the URL.

    async with ArenaSession("ws://127.0.0.1:8000/envs/releaseops-v3/ws") as session:
        first = await session.reset({"seed": 7, "options": {...}})
        reply = await session.step("inspect_artifact", {"artifact_id": "ci_run"})
"""

import asyncio
import base64
import json
import os
import struct
import urllib.parse
from typing import Any, Dict, Optional

# OpenEnv's `EnvClient.disconnect()` sends exactly this (`json.dumps({"type": "close"})`).
CLOSE_MESSAGE = json.dumps({"type": "close"}).encode("utf-8")
# How long close() waits for the server's closing frame; the server answers at once, a dead one never.
CLOSE_WAIT_S = 5.0


class ArenaServerError(RuntimeError):
    """The server answered with an error message (``code`` is OpenEnv's, e.g. ``CAPACITY_REACHED``)."""

    def __init__(self, code: str, message: str):
        super().__init__("%s: %s" % (code, message))
        self.code = code


class ArenaSession:
    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 60.0, max_frame: int = 64 * 1024 * 1024):
        self.url = url
        self.token = token
        self.timeout = timeout
        self.max_frame = max_frame
        self.reader: Optional[asyncio.StreamReader] = None
        self.writer: Optional[asyncio.StreamWriter] = None
        self.last: Optional[Dict[str, Any]] = None

    async def __aenter__(self) -> "ArenaSession":
        await self.connect()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def connect(self) -> None:
        parsed = urllib.parse.urlsplit(self.url)
        if parsed.scheme not in ("ws", "wss"):
            raise ValueError("an env URL is ws:// or wss://, not %r" % self.url)
        port = parsed.port or (443 if parsed.scheme == "wss" else 80)
        self.reader, self.writer = await asyncio.wait_for(
            asyncio.open_connection(parsed.hostname, port, ssl=parsed.scheme == "wss"), self.timeout
        )
        key = base64.b64encode(os.urandom(16)).decode("ascii")
        path = (parsed.path or "/") + ("?" + parsed.query if parsed.query else "")
        lines = [
            "GET %s HTTP/1.1" % path,
            "Host: %s" % parsed.netloc,
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: %s" % key,
            "Sec-WebSocket-Version: 13",
        ]
        if self.token:
            lines.append("Authorization: Bearer %s" % self.token)
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("ascii"))
        head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), self.timeout)
        status = head.split(b"\r\n", 1)[0].decode("latin-1")
        if " 101 " not in status + " ":
            raise ArenaServerError("HANDSHAKE_FAILED", "%s answered %s" % (self.url, status))

    def _send(self, opcode: int, payload: bytes) -> None:
        assert self.writer is not None
        mask = os.urandom(4)
        size = len(payload)
        header = bytes([0x80 | opcode])
        if size < 126:
            header += bytes([0x80 | size])
        elif size < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", size)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", size)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.writer.write(header + mask + masked)

    async def _frame(self):
        assert self.reader is not None
        first, second = await self.reader.readexactly(2)
        size = second & 0x7F
        if size == 126:
            size = struct.unpack("!H", await self.reader.readexactly(2))[0]
        elif size == 127:
            size = struct.unpack("!Q", await self.reader.readexactly(8))[0]
        if size > self.max_frame:
            raise ArenaServerError("FRAME_TOO_LARGE", "a %d-byte frame" % size)
        mask = await self.reader.readexactly(4) if second & 0x80 else None
        payload = await self.reader.readexactly(size)
        if mask:
            payload = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        return bool(first & 0x80), first & 0x0F, payload

    async def _message(self) -> str:
        parts = []
        while True:
            final, opcode, payload = await self._frame()
            if opcode == 0x9:  # ping
                self._send(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                raise ArenaServerError("CONNECTION_CLOSED", "closed with %d %s" % (code, payload[2:].decode("utf-8", "replace")))
            parts.append(payload)
            if final:
                return b"".join(parts).decode("utf-8")

    async def request(self, message: Dict[str, Any]) -> Dict[str, Any]:
        self._send(0x1, json.dumps(message, ensure_ascii=False).encode("utf-8"))
        assert self.writer is not None
        await self.writer.drain()
        reply = json.loads(await asyncio.wait_for(self._message(), self.timeout))
        if reply.get("type") == "error":
            data = reply.get("data") or {}
            raise ArenaServerError(str(data.get("code", "ERROR")), str(data.get("message", "")))
        self.last = reply["data"]
        return self.last

    async def reset(self, params: Dict[str, Any]) -> Dict[str, Any]:
        return await self.request({"type": "reset", "data": params})

    async def step(self, tool: str, arguments: Dict[str, Any]) -> Dict[str, Any]:
        return await self.request({"type": "step", "data": {"tool": tool, "arguments": arguments}})

    async def close(self) -> None:
        """OpenEnv's ``{"type": "close"}`` (the server ends the session as ``client_closed``), then our
        closing frame, then the server's, bounded by ``CLOSE_WAIT_S``; best effort on a broken connection."""
        if self.writer is None:
            return
        try:
            self._send(0x1, CLOSE_MESSAGE)
            self._send(0x8, struct.pack("!H", 1000))
            await self.writer.drain()
            await asyncio.wait_for(self._closing_frame(), min(self.timeout, CLOSE_WAIT_S))
        except (ConnectionError, OSError, RuntimeError, asyncio.TimeoutError, asyncio.IncompleteReadError, ArenaServerError):
            pass
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass
        self.writer = None

    async def _closing_frame(self) -> None:
        """Reads (and drops) frames until the server's closing frame."""
        while True:
            _, opcode, _ = await self._frame()
            if opcode == 0x8:
                return


def text_of(payload: Dict[str, Any]) -> str:
    """What the model sees of a reply (the env's render)."""
    return str((payload.get("metadata") or {}).get("text", ""))


def cumulative_reward(payload: Dict[str, Any]) -> float:
    """The episode's score so far; an unfinished Arena episode already includes the missed-deadline −0.6."""
    return float(((payload.get("metadata") or {}).get("info") or {})["cumulative_reward"])


def terminal_outcome(payload: Dict[str, Any]) -> str:
    """How the episode ended, from the last reply (releaseops-v1, -v2 and -v3 alike): the env's
    ``info.terminal_reason`` (``safe_ship``, ``unsafe_ship``, ``missed_deadline``) once it terminated,
    ``truncated`` when the env cut it short, ``unfinished`` when the rollout stopped first (no call, turn or
    length limit). A terminated episode without a reason is another env behind the URL: refused."""
    metadata = payload.get("metadata") or {}
    if metadata.get("terminated"):
        reason = (metadata.get("info") or {}).get("terminal_reason")
        if not isinstance(reason, str) or not reason:
            raise ArenaServerError("NO_TERMINAL_REASON", "a terminated episode without info.terminal_reason: %r" % reason)
        return reason
    return "truncated" if metadata.get("truncated") else "unfinished"
