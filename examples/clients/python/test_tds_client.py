"""Unit tests of the credential encoding of tds_client (stdlib unittest).

    python3 -m unittest discover -s examples/clients/python
"""

import base64
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tds_client import (  # noqa: E402
    EXPIRY_MARGIN_SECONDS,
    RestClient,
    EnvironmentConfig,
    Response,
    build_client_id,
    decode_credentials,
    encode_credentials,
)

# PUBLIC-FACTS.md: Client ID `V1:userid:group:domain`, password `12345`.
PUBLIC_VECTOR = "VmpFNmRYTmxjbWxrT21keWIzVndPbVJ2YldGcGJnPT06TVRJek5EVT0="


class ClientIdTest(unittest.TestCase):
    def test_cred01_colon_joined_with_v1(self):
        self.assertEqual(build_client_id("userid", "group", "domain"), "V1:userid:group:domain")

    def test_cred04_default_domain_aa(self):
        self.assertEqual(build_client_id("7971", "Z2NL"), "V1:7971:Z2NL:AA")
        self.assertEqual(build_client_id("7971", "Z2NL", None), "V1:7971:Z2NL:AA")
        self.assertEqual(build_client_id("7971", "Z2NL", ""), "V1:7971:Z2NL:AA")

    def test_configured_domain_is_kept(self):
        self.assertEqual(build_client_id("devportal01", "DEVCENTER", "EXT"), "V1:devportal01:DEVCENTER:EXT")


class EncodingTest(unittest.TestCase):
    def test_cred02_public_vector(self):
        self.assertEqual(encode_credentials("V1:userid:group:domain", "12345"), PUBLIC_VECTOR)

    def test_cred02_public_vector_decodes(self):
        self.assertEqual(decode_credentials(PUBLIC_VECTOR), ("V1:userid:group:domain", "12345"))

    def test_cred02_layers(self):
        outer = base64.b64decode(encode_credentials("V1:u:g:AA", "pw")).decode("ascii")
        encoded_id, encoded_password = outer.split(":")
        self.assertEqual(base64.b64decode(encoded_id), b"V1:u:g:AA")
        self.assertEqual(base64.b64decode(encoded_password), b"pw")

    def test_colon_in_password_round_trips(self):
        client_id = build_client_id("7971", "Z2NL")
        for password in ("pa:ss", ":", "a:b:c", ":leading", "trailing:"):
            with self.subTest(password=password):
                encoded = encode_credentials(client_id, password)
                # The outer layer holds exactly one ':' (base64 has none).
                self.assertEqual(base64.b64decode(encoded).decode("ascii").count(":"), 1)
                self.assertEqual(decode_credentials(encoded), (client_id, password))

    def test_colon_in_user_id_round_trips(self):
        client_id = build_client_id("us:er", "Z2NL")
        self.assertEqual(decode_credentials(encode_credentials(client_id, "12345")), ("V1:us:er:Z2NL:AA", "12345"))

    def test_non_ascii_password_round_trips_as_utf8(self):
        client_id = build_client_id("7971", "Z2NL")
        for password in ("pässwörd", "€uro+/= ", "пароль", "密码", "emoji🙂", "Ws:ä€+/= !"):
            with self.subTest(password=password):
                encoded = encode_credentials(client_id, password)
                self.assertEqual(decode_credentials(encoded), (client_id, password))
                inner = base64.b64decode(encoded).decode("ascii").split(":")[1]
                self.assertEqual(base64.b64decode(inner), password.encode("utf-8"))

    def test_known_utf8_encoding(self):
        # base64 of the UTF-8 bytes c3 a4 ("ä"), not of Latin-1 e4.
        outer = base64.b64decode(encode_credentials("V1:u:g:AA", "ä")).decode("ascii")
        self.assertEqual(outer.split(":")[1], "w6Q=")

    def test_decode_rejects_single_base64(self):
        single = base64.b64encode(b"V1:userid:group:domain:12345").decode("ascii")
        with self.assertRaises(ValueError):
            decode_credentials(single)


class FakeHttp:
    """Answers from a script; records what was asked."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.requests = []

    def request(self, method, url, headers, data=None):
        self.requests.append((method, url, dict(headers), data))
        return self.answers.pop(0)


def token_response(token, expires_in=604800):
    return Response(200, {}, '{"access_token":"%s","token_type":"bearer","expires_in":%d}' % (token, expires_in))


class ClientTest(unittest.TestCase):
    def setUp(self):
        self.now = 1000.0
        self.env = {"cert": EnvironmentConfig(rest_base_url="http://127.0.0.1:1", epr="7971", pcc="Z2NL", password="pw")}

    def client(self, http):
        return RestClient(self.env, http=http, clock=lambda: self.now)

    def test_token_request_shape(self):
        http = FakeHttp([token_response("T1"), Response(200, {}, "{}")])
        self.client(http).call("cert", "get", "/v1/lists/supported/shop/themes")
        method, url, headers, data = http.requests[0]
        self.assertEqual((method, url, data), ("POST", "http://127.0.0.1:1/v2/auth/token", b"grant_type=client_credentials"))
        self.assertEqual(headers["Content-Type"], "application/x-www-form-urlencoded")
        self.assertEqual(headers["Authorization"], "Basic " + encode_credentials("V1:7971:Z2NL:AA", "pw"))
        self.assertEqual(http.requests[1][0], "GET")
        self.assertEqual(http.requests[1][2]["Authorization"], "Bearer T1")

    def test_token_reused_until_own_clock_says_expired(self):
        http = FakeHttp([token_response("T1"), Response(200, {}, "{}"), Response(200, {}, "{}"), token_response("T2"), Response(200, {}, "{}")])
        client = self.client(http)
        client.call("cert", "GET", "/a")
        self.now += 604800 - EXPIRY_MARGIN_SECONDS - 1
        client.call("cert", "GET", "/a")
        self.now += 2
        client.call("cert", "GET", "/a")
        self.assertEqual([r[2]["Authorization"] for r in http.requests if r[0] == "GET"], ["Bearer T1", "Bearer T1", "Bearer T2"])

    def test_invalid_client_keeps_code_and_description(self):
        body = '{"error":"invalid_client","error_description":"Wrong clientID or clientSecret"}'
        http = FakeHttp([Response(401, {}, body)])
        with self.assertRaises(Exception) as caught:
            self.client(http).call("cert", "GET", "/a")
        self.assertEqual(caught.exception.to_json(), {"kind": "auth", "message": caught.exception.message, "code": "invalid_client", "description": "Wrong clientID or clientSecret"})
        self.assertEqual(len(http.requests), 1)

    def test_401_from_api_refreshes_once(self):
        refused = Response(401, {}, '{"errorCode":"ERR.2SG.SEC.INVALID_CREDENTIALS","message":"Authentication failed due to invalid credentials"}')
        http = FakeHttp([token_response("T1"), refused, token_response("T2"), refused])
        with self.assertRaises(Exception) as caught:
            self.client(http).call("cert", "GET", "/a")
        self.assertEqual(caught.exception.kind, "auth")
        self.assertEqual(caught.exception.code, "ERR.2SG.SEC.INVALID_CREDENTIALS")
        self.assertEqual([r[2]["Authorization"] for r in http.requests if r[0] == "GET"], ["Bearer T1", "Bearer T2"])
        self.assertEqual(len(http.requests), 4)


if __name__ == "__main__":
    unittest.main()
