"""The Arena adapter's reports: OpenEnv's close message on the wire, the episode's outcome from the env's
``info.terminal_reason``, and the score on the policy's last token as a GAE-style reader of
``rm_scores × response_mask`` sees it. The live server's counters are checked by
``test/verl-arena.test.ts``; VeRL's own manager by ``scripts/acceptance/verl.sh --manager``.
"""

import asyncio
import base64
import hashlib
import json
import struct
import unittest

from releaseops_verl.arena_agent_loop import end_on_model_token
from releaseops_verl.arena_session import ArenaServerError, ArenaSession, terminal_outcome

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC11B65"


class RecordingPeer:
    """A loopback WebSocket peer that records each frame a client sends and answers like an OpenEnv server:
    an observation to a reset, and on a closing frame its own. ``answer_close`` False: it never answers."""

    def __init__(self, answer_close=True, drop_after_handshake=False):
        self.frames = []
        self.answer_close = answer_close
        self.drop_after_handshake = drop_after_handshake
        self.done = asyncio.Event()
        self.release = asyncio.Event()

    async def start(self):
        self.server = await asyncio.start_server(self.serve, "127.0.0.1", 0)
        return "ws://127.0.0.1:%d/envs/releaseops-v3/ws" % self.server.sockets[0].getsockname()[1]

    async def stop(self):
        self.release.set()
        self.server.close()
        await self.server.wait_closed()

    @staticmethod
    def frame(opcode, payload):
        size = len(payload)
        head = bytes([0x80 | opcode]) + (bytes([size]) if size < 126 else bytes([126]) + struct.pack("!H", size))
        return head + payload

    async def serve(self, reader, writer):
        head = await reader.readuntil(b"\r\n\r\n")
        key = [line.split(b":", 1)[1].strip() for line in head.split(b"\r\n") if line.lower().startswith(b"sec-websocket-key")][0]
        accept = base64.b64encode(hashlib.sha1(key + _GUID).digest())
        writer.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n")
        await writer.drain()
        try:
            if self.drop_after_handshake:
                return
            while True:
                first, second = await reader.readexactly(2)
                size = second & 0x7F
                if size == 126:
                    size = struct.unpack("!H", await reader.readexactly(2))[0]
                mask = await reader.readexactly(4)
                payload = bytes(byte ^ mask[index % 4] for index, byte in enumerate(await reader.readexactly(size)))
                opcode = first & 0x0F
                self.frames.append((opcode, payload))
                if opcode == 0x1 and json.loads(payload)["type"] == "reset":
                    reply = {"type": "observation", "data": {"observation": {}, "reward": 0.0, "done": False, "metadata": {"text": "hi"}}}
                    writer.write(self.frame(0x1, json.dumps(reply).encode()))
                if opcode == 0x8:
                    if self.answer_close:
                        writer.write(self.frame(0x8, payload))
                        await writer.drain()
                    else:
                        await self.release.wait()
                    return
        except asyncio.IncompleteReadError:
            pass
        finally:
            writer.close()
            self.done.set()


def run(coroutine):
    return asyncio.run(coroutine)


class CloseMessageTest(unittest.TestCase):
    def test_close_sends_openenvs_close_message_before_the_closing_frame(self):
        async def scenario():
            peer = RecordingPeer()
            url = await peer.start()
            session = ArenaSession(url, timeout=5)
            await session.connect()
            await session.reset({"seed": 1})
            await session.close()
            await asyncio.wait_for(peer.done.wait(), 5)
            await peer.stop()
            return session, peer.frames

        session, frames = run(scenario())
        self.assertEqual([opcode for opcode, _ in frames], [0x1, 0x1, 0x8])
        self.assertEqual(json.loads(frames[0][1])["type"], "reset")
        # The bytes OpenEnv's EnvClient.disconnect() sends: json.dumps({"type": "close"}).
        self.assertEqual(frames[1][1], json.dumps({"type": "close"}).encode())
        self.assertEqual(struct.unpack("!H", frames[2][1][:2])[0], 1000)
        self.assertIsNone(session.writer)

    def test_close_is_bounded_when_the_server_never_answers_and_quiet_when_it_is_gone(self):
        async def scenario(peer, timeout):
            url = await peer.start()
            session = ArenaSession(url, timeout=timeout)
            await session.connect()
            await session.close()
            await session.close()  # a second close is a no-op
            await peer.stop()
            return session, peer.frames

        session, frames = run(scenario(RecordingPeer(answer_close=False), 0.2))
        self.assertEqual([opcode for opcode, _ in frames], [0x1, 0x8])
        self.assertIsNone(session.writer)
        session, frames = run(scenario(RecordingPeer(drop_after_handshake=True), 2))
        self.assertEqual(frames, [])
        self.assertIsNone(session.writer)


def reply(terminated=False, truncated=False, **info):
    return {"observation": {}, "reward": 0.0, "done": terminated or truncated,
            "metadata": {"terminated": terminated, "truncated": truncated, "text": "", "info": {"cumulative_reward": 0.0, "step_count": 3, **info}}}


class TerminalOutcomeTest(unittest.TestCase):
    def test_reads_the_terminal_reason_every_arena_version_writes(self):
        # v1, v2 and v3 all report the end as info.terminal_reason (v1's scenario field, v2/v3's episode's).
        for reason in ("safe_ship", "unsafe_ship", "missed_deadline"):
            self.assertEqual(terminal_outcome(reply(terminated=True, terminal_reason=reason)), reason)
        self.assertEqual(terminal_outcome(reply(truncated=True, terminal_reason=None, truncated_reason="no_progress")), "truncated")
        self.assertEqual(terminal_outcome(reply(terminal_reason=None)), "unfinished")

    def test_a_terminated_episode_without_a_reason_is_refused(self):
        # The key the loop used to read: an env that only writes `outcome` is not the Arena.
        for info in ({"outcome": "safe_ship"}, {"terminal_reason": None}, {"terminal_reason": ""}):
            with self.assertRaises(ArenaServerError) as caught:
                terminal_outcome(reply(terminated=True, **info))
            self.assertEqual(caught.exception.code, "NO_TERMINAL_REASON")


def verl_rm_scores(response_mask, score, width):
    """VeRL 0.9.0 ``AgentLoopWorker._postprocess``: right-padded to ``width``, the score on the last
    non-padding response token (attention length − 1)."""
    mask = list(response_mask) + [0] * (width - len(response_mask))
    scores = [0.0] * width
    scores[len(response_mask) - 1] = score
    return scores, mask


def gae_returns(rewards, mask, gamma=1.0, lam=1.0):
    """VeRL's ``compute_gae_advantage_return`` with zero values: TD errors on observation tokens (mask 0)
    are skipped, so a reward sitting on one is lost."""
    next_value, last, out = 0.0, 0.0, []
    for reward, bit in zip(reversed(rewards), reversed(mask)):
        value = 0.0
        delta = reward + gamma * next_value - value
        candidate = delta + gamma * lam * last
        next_value = value * bit + (1 - bit) * next_value
        last = candidate * bit + (1 - bit) * last
        out.append(last)
    return out[::-1]


class RewardOnModelTokenTest(unittest.TestCase):
    # The policy's call (mask 1), the env's reply (0), the ship decision (1), the env's last observation (0).
    ids = [11, 12, 13, 90, 91, 14, 15, 92, 93, 94]
    mask = [1, 1, 1, 0, 0, 1, 1, 0, 0, 0]
    logprobs = [-0.1, -0.2, -0.3, 0.0, 0.0, -0.4, -0.5, 0.0, 0.0, 0.0]
    score = 0.75

    def test_untrimmed_the_score_lands_on_an_env_token_and_gae_loses_it(self):
        scores, mask = verl_rm_scores(self.mask, self.score, 16)
        self.assertEqual(sum(s * m for s, m in zip(scores, mask)), 0.0)
        self.assertEqual(gae_returns(scores, mask)[0], 0.0)

    def test_trimmed_the_score_is_on_the_last_policy_token_and_every_reader_sees_it(self):
        ids, mask, logprobs = end_on_model_token(self.ids, self.mask, self.logprobs)
        self.assertEqual(ids, [11, 12, 13, 90, 91, 14, 15])
        self.assertEqual(mask, [1, 1, 1, 0, 0, 1, 1])
        self.assertEqual(logprobs, [-0.1, -0.2, -0.3, 0.0, 0.0, -0.4, -0.5])
        scores, padded = verl_rm_scores(mask, self.score, 16)
        self.assertEqual(padded[scores.index(self.score)], 1)
        self.assertEqual(sum(s * m for s, m in zip(scores, padded)), self.score)
        returns = gae_returns(scores, padded)
        self.assertEqual([returns[i] for i, bit in enumerate(padded) if bit], [self.score] * 5)

    def test_a_response_ending_on_a_policy_token_or_without_one_is_left_as_it_is(self):
        self.assertEqual(end_on_model_token([1, 2, 3], [1, 0, 1], None), ([1, 2, 3], [1, 0, 1], None))
        self.assertEqual(end_on_model_token([7, 8], [0, 0], [0.0, 0.0]), ([7, 8], [0, 0], [0.0, 0.0]))


if __name__ == "__main__":
    unittest.main()
