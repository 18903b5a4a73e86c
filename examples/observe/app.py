#!/usr/bin/env python3
"""An ordinary application built on the Python reference client (examples/clients/python/tds_client.py), with no
driver: it reads where the service is and its account from the environment, as most applications do, and runs a
small workload. Run it under the observing proxy, which sets those variables and judges what it sends:

    npx tds-conformance observe --upstream sim --inject unauthorized-once -- python3 examples/observe/app.py

Variables: TDS_CERT_REST_URL, TDS_CERT_EPR, TDS_CERT_PCC, TDS_CERT_PASSWORD (and the same for PROD, optional).
"""

from __future__ import annotations

import os
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))

from tds_client import EnvironmentConfig, RestClient, TdsError  # noqa: E402 (after the path set-up)

THEMES = "/v1/lists/supported/shop/themes"


def environments() -> dict:
    out = {}
    for name in ("cert", "prod"):
        prefix = f"TDS_{name.upper()}_"
        url = os.environ.get(prefix + "REST_URL")
        if not url:
            continue
        out[name] = EnvironmentConfig(
            rest_base_url=url,
            epr=os.environ[prefix + "EPR"],
            pcc=os.environ[prefix + "PCC"],
            password=os.environ[prefix + "PASSWORD"],
            rest_domain=os.environ.get(prefix + "REST_DOMAIN") or None,
        )
    return out


def main() -> int:
    envs = environments()
    if "cert" not in envs:
        print("app.py: set TDS_CERT_REST_URL, TDS_CERT_EPR, TDS_CERT_PCC and TDS_CERT_PASSWORD (observe sets them)", file=sys.stderr)
        return 2
    client = RestClient(envs)
    failures = []

    def call(env: str) -> None:
        try:
            client.call(env, "GET", THEMES)
        except TdsError as err:
            failures.append(err.message)

    # Several calls at once with no token held, then more with the same token, in each environment configured.
    threads = [threading.Thread(target=call, args=("cert",)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for _ in range(3):
        call("cert")
    if "prod" in envs:
        call("prod")
        call("prod")
    for message in failures:
        print(f"app.py: {message}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
