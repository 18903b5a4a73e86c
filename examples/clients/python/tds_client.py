"""A small REST client of the travel distribution service's auth interface (Python 3, standard library only).

What it does, rule by rule (IDs from docs/rules.md):

- CRED-01/02/04: the Client ID is ``V1:<epr>:<pcc>:<domain>`` (domain ``AA`` when none is configured) and the
  credentials are ``base64(base64(ClientID) + ":" + base64(password))``, UTF-8 throughout.
- REST-01: ``POST <restBaseUrl>/v2/auth/token`` with ``Content-Type: application/x-www-form-urlencoded`` and
  ``grant_type=client_credentials``.
- API-03: ``Authorization: Bearer <token>``, an upper-case method, on the base URL of the environment the token came
  from.
- API-04/05: one token per environment, reused until it expires (on the client's own clock, with a margin); a lock
  per environment makes concurrent first calls share one token request.
- LIFE-03: a 401 from an API drops the token, obtains a new one and retries the call once.
- ERR-06: ``invalid_client`` becomes an :class:`AuthError` keeping ``error`` and ``error_description``; a token
  request is never retried in a loop.
- ENV-02: tokens are cached per environment and only sent to that environment's base URL.
"""

from __future__ import annotations

import base64
import http.client
import json
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Tuple

CLIENT_ID_VERSION = "V1"
DEFAULT_REST_DOMAIN = "AA"
TOKEN_PATH = "/v2/auth/token"
FORM_CONTENT_TYPE = "application/x-www-form-urlencoded"
GRANT_TYPE = "client_credentials"
#: The lifetime the interface document gives (``expires_in`` is always 604800); used when a response lacks it.
DEFAULT_LIFETIME_SECONDS = 604800
#: Seconds before the announced expiry at which a cached token is no longer used.
EXPIRY_MARGIN_SECONDS = 60.0
#: Time limit of one HTTP request, in seconds.
DEFAULT_TIMEOUT_SECONDS = 10.0

_LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}


# --- errors -------------------------------------------------------------------------------------------------------


class TdsError(Exception):
    """An operation that failed; ``kind`` is the driver protocol's error kind."""

    kind = "protocol"

    def __init__(self, message: str, code: Optional[str] = None, description: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.description = description

    def to_json(self) -> dict:
        out: dict = {"kind": self.kind, "message": self.message}
        if self.code is not None:
            out["code"] = self.code
        if self.description is not None:
            out["description"] = self.description
        return out


class AuthError(TdsError):
    """The service refused the credentials (``invalid_client``) or a freshly obtained token."""

    kind = "auth"


class TransportError(TdsError):
    """No answer: connection refused or reset, time-out."""

    kind = "transport"


class ProtocolError(TdsError):
    """The service answered something this client cannot use, or the client was asked something it cannot do."""

    kind = "protocol"


# --- credentials --------------------------------------------------------------------------------------------------


def b64(text: str) -> str:
    """Standard base64 (with padding) of the UTF-8 bytes of ``text``."""
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def unb64(text: str) -> str:
    """Strict inverse of :func:`b64`."""
    return base64.b64decode(text.encode("ascii"), validate=True).decode("utf-8")


def build_client_id(epr: str, pcc: str, domain: Optional[str] = None) -> str:
    """CRED-01 and CRED-04: ``V1:<userid>:<group>:<domain>``; domain ``AA`` when none (or an empty one) is given."""
    return ":".join([CLIENT_ID_VERSION, epr, pcc, domain or DEFAULT_REST_DOMAIN])


def encode_credentials(client_id: str, password: str) -> str:
    """CRED-02: ``base64(base64(ClientID) + ":" + base64(password))``."""
    return b64(b64(client_id) + ":" + b64(password))


def decode_credentials(encoded: str) -> Tuple[str, str]:
    """The inverse of :func:`encode_credentials`: ``(client_id, password)``. Base64 has no ``:``, so the split is exact."""
    outer = unb64(encoded)
    encoded_id, sep, encoded_password = outer.partition(":")
    if not sep or ":" in encoded_password:
        raise ValueError("the decoded credentials are not two base64 strings joined by one ':'")
    return unb64(encoded_id), unb64(encoded_password)


# --- configuration ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EnvironmentConfig:
    rest_base_url: str
    epr: str
    pcc: str
    password: str
    rest_domain: Optional[str] = None
    soap_url: Optional[str] = None
    soap_domain: Optional[str] = None

    @property
    def client_id(self) -> str:
        return build_client_id(self.epr, self.pcc, self.rest_domain)

    def url(self, path: str) -> str:
        return self.rest_base_url.rstrip("/") + (path if path.startswith("/") else "/" + path)


@dataclass
class _Token:
    value: str
    #: On the client's monotonic clock: after this, the token is not used any more.
    use_until: float


@dataclass(frozen=True)
class Response:
    status: int
    headers: Mapping[str, str]
    text: str

    def json(self) -> Any:
        return json.loads(self.text)

    def body(self) -> Any:
        """The body as JSON when it is JSON, else the text; ``None`` when empty."""
        if not self.text:
            return None
        try:
            return json.loads(self.text)
        except ValueError:
            return self.text


# --- HTTP ---------------------------------------------------------------------------------------------------------


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Credentials and bearer tokens must not follow a redirect to another place: a 3xx is returned as it is."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: D102 (urllib's signature)
        return None


def _opener(proxies: bool) -> urllib.request.OpenerDirector:
    handlers: list = [_NoRedirect()]
    if not proxies:
        handlers.append(urllib.request.ProxyHandler({}))
    return urllib.request.build_opener(*handlers)


class Http:
    """One HTTP exchange at a time per call, with a time-out; 4xx and 5xx are answers, not exceptions."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT_SECONDS) -> None:
        self.timeout = timeout
        # Environment proxies apply, except to loopback (the simulator).
        self._proxied = _opener(proxies=True)
        self._direct = _opener(proxies=False)

    def request(self, method: str, url: str, headers: Mapping[str, str], data: Optional[bytes] = None) -> Response:
        req = urllib.request.Request(url, data=data, headers=dict(headers), method=method)
        host = urllib.parse.urlsplit(url).hostname or ""
        opener = self._direct if host in _LOOPBACK_HOSTS else self._proxied
        try:
            with opener.open(req, timeout=self.timeout) as res:
                return Response(res.status, _headers(res.headers), _text(res.read()))
        except urllib.error.HTTPError as err:
            # urllib raises for 4xx/5xx (and unfollowed 3xx): the status and body are the answer.
            try:
                body = err.read()
            except (OSError, http.client.HTTPException):
                body = b""
            finally:
                err.close()
            return Response(err.code, _headers(err.headers), _text(body))
        except urllib.error.URLError as err:
            raise TransportError(f"{method} {_redact_url(url)}: {err.reason}") from err
        except (socket.timeout, TimeoutError) as err:
            raise TransportError(f"{method} {_redact_url(url)}: no answer within {self.timeout:g} s") from err
        except (OSError, http.client.HTTPException) as err:
            raise TransportError(f"{method} {_redact_url(url)}: {err.__class__.__name__}: {err}") from err


def _headers(message: Any) -> Mapping[str, str]:
    if message is None:
        return {}
    return {name.lower(): value for name, value in message.items()}


def _text(body: bytes) -> str:
    return body.decode("utf-8", errors="replace")


def _redact_url(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


# --- the client ---------------------------------------------------------------------------------------------------


class RestClient:
    """A REST client for one or more environments (``cert``, ``prod``). Thread-safe."""

    def __init__(
        self,
        environments: Mapping[str, EnvironmentConfig],
        http: Optional[Http] = None,
        clock: Callable[[], float] = time.monotonic,
        margin: float = EXPIRY_MARGIN_SECONDS,
        log: Callable[[str], None] = lambda _message: None,
    ) -> None:
        self._environments = dict(environments)
        self._http = http or Http()
        self._clock = clock
        self._margin = margin
        self._log = log
        self._tokens: dict = {}
        # API-05: one lock per environment, so that concurrent first calls share one token request.
        self._locks = {name: threading.Lock() for name in self._environments}

    def environment(self, name: str) -> EnvironmentConfig:
        env = self._environments.get(name)
        if env is None:
            raise ProtocolError(f'environment "{name}" is not configured')
        return env

    # API-03, API-04, LIFE-03
    def call(self, environment: str, method: str, path: str, body: Any = None) -> Response:
        """Calls a published REST API with a bearer token of ``environment``, obtaining one when needed."""
        env = self.environment(environment)
        method = method.upper()
        data = None if body is None else json.dumps(body).encode("utf-8")
        token = self.token(environment)
        res = self._api(env, method, path, data, token)
        if res.status != 401:
            return res
        # LIFE-03: the token expired or is refused; do not send it again. New token once, call once more.
        self._log(f"{environment}: the API refused the token ({res.status}); obtaining a new one")
        token = self.token(environment, refused=token)
        res = self._api(env, method, path, data, token)
        if res.status == 401:
            code, description = _api_error(res)
            raise AuthError(f"{method} {path}: the service refused a newly obtained token ({res.status})", code, description)
        return res

    def token(self, environment: str, refused: Optional[str] = None) -> str:
        """The cached token of ``environment``, or a new one when there is none, it is about to expire, or it is
        ``refused``. Single-flight: callers wait on the environment's lock while one of them asks for the token."""
        env = self.environment(environment)
        with self._locks[environment]:
            cached = self._tokens.get(environment)
            if cached is not None and cached.value != refused and self._clock() < cached.use_until:
                return cached.value
            self._tokens.pop(environment, None)
            token = self._request_token(environment, env)
            self._tokens[environment] = token
            return token.value

    def forget_tokens(self) -> None:
        for environment, lock in self._locks.items():
            with lock:
                self._tokens.pop(environment, None)

    def _api(self, env: EnvironmentConfig, method: str, path: str, data: Optional[bytes], token: str) -> Response:
        headers = {"Authorization": "Bearer " + token, "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        return self._http.request(method, env.url(path), headers, data)

    # CRED-01, CRED-02, CRED-04, REST-01, ERR-06
    def _request_token(self, environment: str, env: EnvironmentConfig) -> _Token:
        started = self._clock()
        headers = {
            "Authorization": "Basic " + encode_credentials(env.client_id, env.password),
            "Content-Type": FORM_CONTENT_TYPE,
            "Accept": "application/json",
        }
        data = urllib.parse.urlencode({"grant_type": GRANT_TYPE}).encode("ascii")
        self._log(f"{environment}: requesting a token")
        res = self._http.request("POST", env.url(TOKEN_PATH), headers, data)
        try:
            payload = res.json()
        except ValueError:
            payload = None
        if res.status != 200:
            error = payload.get("error") if isinstance(payload, dict) else None
            description = payload.get("error_description") if isinstance(payload, dict) else None
            code = error if isinstance(error, str) else None
            description = description if isinstance(description, str) else None
            if code in ("invalid_client", "unauthorized_client") or res.status == 401:
                # ERR-06: an authentication error that keeps the code and description; no retry.
                raise AuthError(f"the token request was refused ({res.status} {code or 'no error code'})", code, description)
            raise ProtocolError(f"the token request failed ({res.status} {code or 'no error code'})", code, description)
        if not isinstance(payload, dict):
            raise ProtocolError("the token response is not a JSON object")
        access_token = payload.get("access_token")
        if not isinstance(access_token, str) or not access_token:
            raise ProtocolError('the token response has no "access_token"')
        token_type = payload.get("token_type")
        if not isinstance(token_type, str) or token_type.lower() != "bearer":
            raise ProtocolError(f'unexpected "token_type" value {token_type!r}', description="expected 'bearer'")
        lifetime = _lifetime(payload.get("expires_in"))
        margin = min(self._margin, lifetime / 10)
        return _Token(access_token, started + lifetime - margin)


def _lifetime(value: Any) -> float:
    if isinstance(value, bool):
        return float(DEFAULT_LIFETIME_SECONDS)
    if isinstance(value, (int, float)) and value > 0:
        return float(value)
    if isinstance(value, str) and value.strip().isdigit() and int(value) > 0:
        return float(int(value))
    return float(DEFAULT_LIFETIME_SECONDS)


def _api_error(res: Response) -> Tuple[Optional[str], Optional[str]]:
    """``(errorCode, message)`` of an API error body (``ERR.2SG.SEC.INVALID_CREDENTIALS`` …), when it has them."""
    try:
        payload = res.json()
    except ValueError:
        return None, None
    if not isinstance(payload, dict):
        return None, None
    code = payload.get("errorCode")
    message = payload.get("message")
    return (code if isinstance(code, str) else None, message if isinstance(message, str) else None)
