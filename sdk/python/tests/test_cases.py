"""sdk/conformance/cases.json run through the conformance runner against the
case-driven fake (casefake.py): each case's steps answered as the case says the
server answers, the runner's line checked against ``expect`` and the requests
against the protocol. test/sdk runs the same cases against the real bin/api."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import unittest
import uuid
from typing import Any, Dict

from tests.casefake import CaseFake, Plan, at, cases, mismatch, substitute

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "conformance", "runner.py")
API_KEY = "a2e_test_cases_secret_0123456789"
ERROR_FIELDS = ("class", "code", "status", "requestId", "message", "idempotencyKey", "retryAfter", "outcomeUnknown",
                "creditsRemaining", "spendLimit")


class CasesTest(unittest.TestCase):
    def test_every_case(self) -> None:
        for case in cases():
            with self.subTest(case=case["name"]):
                self.run_case(case)

    def run_case(self, case: Dict[str, Any]) -> None:
        fake = CaseFake().__enter__()
        self.addCleanup(fake.__exit__)
        variables: Dict[str, Any] = {"key": f"key-{uuid.uuid4()}", "email": "seller@example.com",
                                     "otherListingId": str(uuid.uuid4())}
        for i, step in enumerate(case["steps"]):
            op = substitute(step["op"], variables)
            expect = substitute(step["expect"], variables)
            plan = Plan(step, op, expect, variables["email"])
            fake.start(plan)
            key = "a2e_test_of_no_account_0123456789" if step.get("arrange") == "unknownKey" else API_KEY
            base_url = "http://127.0.0.1:9" if step.get("arrange") == "noServer" else fake.url
            started = time.monotonic()
            done = subprocess.run([sys.executable, RUNNER], input=json.dumps(op), capture_output=True, text=True,
                                  timeout=60, env=dict(os.environ, A2E_BASE_URL=base_url, A2E_API_KEY=key))
            took = time.monotonic() - started
            where = f"step {i} {json.dumps(op)}: {done.stdout}{done.stderr}"
            self.assertEqual(done.returncode, 0, where)
            lines = done.stdout.strip().split("\n")
            self.assertEqual(len(lines), 1, where)
            self.assertNotIn(key, done.stdout + done.stderr, "the API key printed")
            line = json.loads(lines[0])
            self.assertIsNone(mismatch(expect, line), where)
            if not line["ok"]:
                for field in ERROR_FIELDS:
                    self.assertIn(field, line["error"], where)
            if "withinSeconds" in step:
                self.assertLessEqual(took, step["withinSeconds"], where)
            if step.get("arrange") != "noServer":
                self.assertIsNone(fake.requests_mismatch(key, op.get("maxRetries", 3)), where)
            for name, path in step.get("save", {}).items():
                variables[name] = at(line, path)


if __name__ == "__main__":
    unittest.main()
