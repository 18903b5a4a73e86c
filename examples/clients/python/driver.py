#!/usr/bin/env python3
"""The stdio driver of the Python reference client: the client driver protocol (docs/driver-protocol.md).

Reads one JSON request per line on stdin, handles each on its own thread (concurrent ``rest.call``s really are
concurrent), and writes one JSON answer per line on stdout, matched by ``id``. Logs go to stderr only.

    tds-conformance run --suite client --client "python3 examples/clients/python/driver.py"

Only the REST ops are implemented; the SOAP ops answer ``unsupported``. Standard library only (tested on Python 3.11).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from typing import Any, Callable, Dict, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tds_client import (  # noqa: E402 (after the path set-up)
    DEFAULT_TIMEOUT_SECONDS,
    EnvironmentConfig,
    Http,
    ProtocolError,
    RestClient,
    TdsError,
)

OPS = ("configure", "rest.call", "soap.call", "soap.session.open", "soap.session.call", "soap.session.close", "shutdown")
SOAP_OPS = ("soap.call", "soap.session.open", "soap.session.call", "soap.session.close")
ENVIRONMENTS = ("cert", "prod")
#: How long ``shutdown`` (and the end of stdin) waits for requests still in flight: the harness allows 10 s.
DRAIN_SECONDS = 8.0

_out_lock = threading.Lock()


def log(message: str) -> None:
    """Diagnostics: stderr only (stdout carries answers and nothing else). Never logs a secret."""
    if os.environ.get("TDS_DRIVER_QUIET"):
        return
    sys.stderr.write(f"[python-driver] {message}\n")
    sys.stderr.flush()


def answer(payload: Dict[str, Any]) -> None:
    """One answer, one line, written whole (a lock keeps concurrent answers from interleaving)."""
    line = json.dumps(payload, separators=(",", ":"), ensure_ascii=True) + "\n"
    with _out_lock:
        sys.stdout.buffer.write(line.encode("utf-8"))
        sys.stdout.buffer.flush()


def ok(request_id: Any, result: Any) -> None:
    answer({"id": request_id, "ok": True, "result": result})


def failed(request_id: Any, error: Dict[str, Any]) -> None:
    answer({"id": request_id, "ok": False, "error": error})


# --- request validation -------------------------------------------------------------------------------------------


def _string(obj: Dict[str, Any], name: str, where: str) -> str:
    value = obj.get(name)
    if not isinstance(value, str):
        raise ProtocolError(f'"{where}.{name}" must be a string')
    return value


def _optional_string(obj: Dict[str, Any], name: str, where: str) -> Optional[str]:
    value = obj.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ProtocolError(f'"{where}.{name}" must be a string when present')
    return value


def parse_environments(request: Dict[str, Any]) -> Dict[str, EnvironmentConfig]:
    environments = request.get("environments")
    if not isinstance(environments, dict):
        raise ProtocolError('"environments" must be an object')
    out: Dict[str, EnvironmentConfig] = {}
    for name, env in environments.items():
        where = f"environments.{name}"
        if name not in ENVIRONMENTS:
            raise ProtocolError(f'unknown environment "{name}" (expected cert or prod)')
        if not isinstance(env, dict):
            raise ProtocolError(f'"{where}" must be an object')
        credentials = env.get("credentials")
        if not isinstance(credentials, dict):
            raise ProtocolError(f'"{where}.credentials" must be an object')
        cw = f"{where}.credentials"
        out[name] = EnvironmentConfig(
            rest_base_url=_string(env, "restBaseUrl", where),
            soap_url=_optional_string(env, "soapUrl", where),
            epr=_string(credentials, "epr", cw),
            pcc=_string(credentials, "pcc", cw),
            password=_string(credentials, "password", cw),
            # Absent means "use your default" (AA for REST, CRED-04).
            rest_domain=_optional_string(credentials, "restDomain", cw),
            soap_domain=_optional_string(credentials, "soapDomain", cw),
        )
    return out


# --- the ops ------------------------------------------------------------------------------------------------------


class Driver:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._client: Optional[RestClient] = None
        timeout = os.environ.get("TDS_CLIENT_TIMEOUT")
        self._timeout = float(timeout) if timeout else DEFAULT_TIMEOUT_SECONDS

    def client(self) -> RestClient:
        with self._lock:
            client = self._client
        if client is None:
            raise ProtocolError('not configured: send "configure" first')
        return client

    def configure(self, request: Dict[str, Any]) -> Dict[str, Any]:
        environments = parse_environments(request)
        # A new configure resets the client: no token survives it.
        client = RestClient(environments, http=Http(self._timeout), log=log)
        with self._lock:
            self._client = client
        log(f"configured: {', '.join(sorted(environments)) or 'no environments'}")
        return {}

    def rest_call(self, request: Dict[str, Any]) -> Dict[str, Any]:
        environment = _string(request, "environment", "rest.call")
        method = _string(request, "method", "rest.call")
        path = _string(request, "path", "rest.call")
        res = self.client().call(environment, method, path, request.get("body"))
        return {"status": res.status, "body": res.body()}

    def shutdown(self) -> Dict[str, Any]:
        # Nothing to close: this client holds no sessions. Tokens are simply forgotten.
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.forget_tokens()
        return {}

    def handle(self, request_id: Any, request: Dict[str, Any]) -> None:
        op = request.get("op")
        try:
            if op == "configure":
                result = self.configure(request)
            elif op == "rest.call":
                result = self.rest_call(request)
            elif op == "shutdown":
                result = self.shutdown()
            elif op in SOAP_OPS:
                failed(request_id, {"kind": "unsupported", "message": f'this client speaks REST only; "{op}" is not supported'})
                return
            else:
                failed(request_id, {"kind": "unsupported", "message": f'unknown op "{op}"'})
                return
        except TdsError as err:
            failed(request_id, err.to_json())
            return
        except Exception as err:  # a bug of the client: still one answer, and the driver keeps serving
            log(f"request {request_id} ({op}) failed: {err.__class__.__name__}: {err}")
            failed(request_id, {"kind": "protocol", "message": f"{err.__class__.__name__}: {err}"})
            return
        ok(request_id, result)


class Pending:
    """The requests in flight, so that shutdown and the end of input can wait for them (boundedly)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._count = 0

    def run(self, target: Callable[[], None]) -> None:
        with self._cond:
            self._count += 1

        def wrapped() -> None:
            try:
                target()
            finally:
                with self._cond:
                    self._count -= 1
                    self._cond.notify_all()

        # Daemon threads: a request stuck on the network never keeps the process from exiting.
        threading.Thread(target=wrapped, daemon=True).start()

    def drain(self, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self._count == 0, timeout=timeout)


def main() -> int:
    driver = Driver()
    pending = Pending()
    stdin = sys.stdin.buffer
    while True:
        raw = stdin.readline()
        if not raw:
            # stdin closed: finish what is in flight, then exit.
            if not pending.drain(DRAIN_SECONDS):
                log("input ended with requests still in flight; exiting anyway")
            return 0
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            failed(-1, {"kind": "protocol", "message": "the request line is not UTF-8"})
            continue
        if not line:
            continue
        try:
            request = json.loads(line)
        except ValueError:
            failed(-1, {"kind": "protocol", "message": "the request line is not JSON"})
            continue
        if not isinstance(request, dict):
            failed(-1, {"kind": "protocol", "message": "the request is not a JSON object"})
            continue
        request_id = request.get("id")
        if not isinstance(request_id, int) or isinstance(request_id, bool):
            failed(-1, {"kind": "protocol", "message": 'the request has no numeric "id"'})
            continue
        if request.get("op") == "shutdown":
            # Answer after the requests in flight (bounded), then exit 0.
            if not pending.drain(DRAIN_SECONDS):
                log("shutdown with requests still in flight; answering anyway")
            driver.handle(request_id, request)
            return 0
        pending.run(lambda request_id=request_id, request=request: driver.handle(request_id, request))


if __name__ == "__main__":
    try:
        code = main()
    except KeyboardInterrupt:
        code = 130
    sys.stdout.flush()
    sys.exit(code)
