"""Shared setup for the tests: the live server's URL and the expected episode computed in process by
the TypeScript test that started the server (RELEASEOPS_URL, RELEASEOPS_EXPECTED)."""

import json
import os
import unittest


def server_url() -> str:
    url = os.environ.get("RELEASEOPS_URL")
    if not url:
        raise unittest.SkipTest("RELEASEOPS_URL is not set (run through `npx vitest run test/server-python.test.ts`)")
    return url


def expected_episode() -> dict:
    path = os.environ.get("RELEASEOPS_EXPECTED")
    if not path:
        raise unittest.SkipTest("RELEASEOPS_EXPECTED is not set")
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)
