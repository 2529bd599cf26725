"""The standard-library client against a live server."""

import os
import sys
import sysconfig
import unittest

from releaseops_client import ReleaseOpsClient, ReleaseOpsHTTPError

from .support import expected_episode, server_url


class StandardLibraryOnly(unittest.TestCase):
    def test_imports_nothing_outside_the_standard_library(self):
        import releaseops_client

        stdlib = {os.path.realpath(sysconfig.get_paths()[key]) for key in ("stdlib", "platstdlib")}
        package = os.path.realpath(os.path.dirname(releaseops_client.__file__))
        foreign = []
        for name, module in list(sys.modules.items()):
            origin = getattr(module, "__file__", None)
            if not origin:
                continue
            origin = os.path.realpath(origin)
            if origin.startswith(package) or any(origin.startswith(root) for root in stdlib):
                continue
            if name.startswith("tests") or name == "__main__":
                continue
            foreign.append(name)
        self.assertEqual(foreign, [])


class ClientTest(unittest.TestCase):
    def setUp(self):
        self.expected = expected_episode()
        self.client = ReleaseOpsClient(server_url(), env_id=self.expected["env_id"], timeout=10)

    def test_health_metadata_and_tools(self):
        self.assertEqual(self.client.health()["status"], "healthy")
        metadata = self.client.metadata()
        self.assertEqual(metadata["env_id"], self.expected["env_id"])
        self.assertEqual([tool["name"] for tool in self.client.tools()], self.expected["tool_names"])

    def test_session_plays_the_expected_episode(self):
        session = self.client.create_session(**self.expected["row"])
        try:
            self.assertEqual(session.text, self.expected["reset_text"])
            for step in self.expected["steps"]:
                reply = session.step(step["tool"], step["arguments"])
                self.assertEqual(reply["text"], step["text"])
                self.assertEqual(reply["reward"], step["reward"])
                self.assertAlmostEqual(reply["cumulative_reward"], step["cumulative_reward"], places=12)
                self.assertEqual(reply["done"], step["done"])
            state = session.state()
            self.assertEqual(state["step_count"], len(self.expected["steps"]))
        finally:
            session.close()
        session.close()  # closing twice is fine

    def test_invalid_action_is_a_reply_with_the_penalty(self):
        session = self.client.create_session(seed=1)
        try:
            reply = session.step("approve_proposal", {"proposal_id": "no-such-proposal"})
            self.assertEqual(reply["reward"], -0.25)
            self.assertEqual(reply["error"]["code"], "unknown_proposal")
            self.assertFalse(reply["done"])
        finally:
            session.close()

    def test_errors_carry_status_code_and_issues(self):
        with self.assertRaises(ReleaseOpsHTTPError) as raised:
            self.client.create_session(seed="not a number")
        self.assertEqual(raised.exception.status, 422)
        self.assertEqual(raised.exception.code, "validation_error")
        self.assertEqual(raised.exception.issues[0]["path"], "seed")
        with self.assertRaises(ReleaseOpsHTTPError) as missing:
            self.client.request("POST", "/sessions/does-not-exist/step", {"tool": "hold_release"})
        self.assertEqual((missing.exception.status, missing.exception.code), (404, "unknown_session"))
        unknown_env = ReleaseOpsClient(server_url(), env_id="nope-v1", timeout=10)
        with self.assertRaises(ReleaseOpsHTTPError) as env_error:
            unknown_env.metadata()
        self.assertEqual(env_error.exception.code, "unknown_env")


if __name__ == "__main__":
    unittest.main()
