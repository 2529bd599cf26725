"""One Arena episode on a releaseops env server over OpenEnv's ``/ws`` wire, standard library only.

A WebSocket connection *is* a session on the server: ``{"type": "reset", "data": {seed, options}}``, then
``{"type": "step", "data": {"tool": name, "arguments": {...}}}`` per call, each answered with
``{"type": "observation", "data": {observation, reward, done, metadata: {text, info, ...}}}``; an
``{"type": "error"}`` reply raises. Closing the connection ends the session. So a rollout keeps its episode
on one server process for its whole life, whatever balancer or ``--workers`` sits behind the URL.

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
        if self.writer is None:
            return
        try:
            self._send(0x8, struct.pack("!H", 1000))
            await self.writer.drain()
        except (ConnectionError, RuntimeError):
            pass
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass
        self.writer = None


def text_of(payload: Dict[str, Any]) -> str:
    """What the model sees of a reply (the env's render)."""
    return str((payload.get("metadata") or {}).get("text", ""))


def cumulative_reward(payload: Dict[str, Any]) -> float:
    """The episode's score so far; an unfinished Arena episode already includes the missed-deadline −0.6."""
    return float(((payload.get("metadata") or {}).get("info") or {})["cumulative_reward"])
