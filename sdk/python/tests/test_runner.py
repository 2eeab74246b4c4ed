"""The conformance runner: one operation in, one JSON line out (sdk/conformance/README.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any, Dict

from tests.fakeapi import API_KEY, LISTING, FakeAPI, FakeAPITestCase, Reply

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "conformance", "runner.py")


class RunnerTest(FakeAPITestCase):
    def run_op(self, api: FakeAPI, op: Dict[str, Any]) -> "subprocess.CompletedProcess[str]":
        env = dict(os.environ, A2E_BASE_URL=api.url, A2E_API_KEY=API_KEY)
        return subprocess.run([sys.executable, RUNNER], input=json.dumps(op), env=env, capture_output=True,
                              text=True, timeout=60)

    def line(self, api: FakeAPI, op: Dict[str, Any]) -> Dict[str, Any]:
        done = self.run_op(api, op)
        self.assertEqual(done.returncode, 0, done.stderr)
        return json.loads(done.stdout)

    def test_create_prints_the_listing_with_the_api_names_and_the_key(self) -> None:
        api = self.serve(Reply(201, dict(LISTING, creditsRemaining=2), {"X-Request-ID": "r-1"}))
        line = self.line(api, {"op": "create", "amazonUrl": LISTING["amazonUrl"], "idempotencyKey": "k"})

        self.assertEqual(line, {"ok": True, "idempotencyKey": "k", "result": dict(
            LISTING, creditsRemaining=2, idempotencyKey="k", requestId="r-1")})

    def test_no_answer_is_class_connection_error_and_max_retries_is_passed(self) -> None:
        api = self.serve("drop", "drop")
        line = self.line(api, {"op": "account", "maxRetries": 0})
        self.assertEqual((line["error"]["class"], line["error"]["status"]), ("ConnectionError", None))
        self.assertEqual(len(api.seen), 1)

    def test_an_unknown_op_exits_non_zero(self) -> None:
        done = self.run_op(self.serve(), {"op": "delete"})
        self.assertNotEqual(done.returncode, 0)
        self.assertEqual(done.stdout, "")
