import type { Area, Rule } from '../types.ts';

export const area: Area = { id: "CRED", title: "building REST credentials" };

export const rules: readonly Rule[] = [
  {
    id: "CRED-01",
    area: "CRED",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "The Client ID is the colon-joined string `V1:<userid>:<group>:<domain>`; `V1` is a fixed literal.",
    source: { section: "Authentication › Rules for the REST token request", quote: "Build the Client ID: `V1:<userid>:<group>:<domain>` (colon-joined)." },
    clauses: [
      { id: "CRED-01.v1-literal", text: "The Client ID starts with the literal `V1` (upper case), whatever the token endpoint's version." },
      { id: "CRED-01.fields", text: "The Client ID is `V1:<userid>:<group>:<domain>`: the configured EPR, PCC and REST domain, in that order, joined with `:`." },
    ],
    dependsOn: ["CRED-02", "REST-01"],
    latitudes: [],
  },
  {
    id: "CRED-02",
    area: "CRED",
    side: "client",
    level: "MUST",
    where: "any",
    statement: "`ENCODED_CREDENTIALS` = base64( base64(ClientID) + `:` + base64(password) ), sent as `Authorization: Basic <ENCODED_CREDENTIALS>`.",
    source: { section: "Authentication › Rules for the REST token request", quote: "Base64-encode the Client ID. Base64-encode the password. Join the two encoded strings with a colon: `<ENCODED_CLIENT_ID>:<ENCODED_PASSWORD>`. Base64-encode that joined string once more. The result is `<ENCODED_CREDENTIALS>`." },
    clauses: [
      { id: "CRED-02.inner-layer", text: "The Client ID and the password are each base64-encoded (of their UTF-8 bytes) and joined with one `:`." },
      { id: "CRED-02.outer-layer", text: "The joined string is base64-encoded once more." },
      { id: "CRED-02.basic-scheme", text: "The result is sent as `Authorization: Basic <ENCODED_CREDENTIALS>`." },
    ],
    dependsOn: ["REST-01"],
    latitudes: [],
  },
  {
    id: "CRED-03",
    area: "CRED",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "For any valid account, including user IDs and passwords that contain `:`, `+`, `/`, `=`, spaces or non-ASCII characters, a correctly built credential string obtains a token.",
    source: { section: "Authentication › Rules for the REST token request", quote: "Send `Authorization: Basic <ENCODED_CREDENTIALS>` with `Content-Type: application/x-www-form-urlencoded` and form field `grant_type=client_credentials` to `POST /v2/auth/token`." },
    clauses: [
      { id: "CRED-03.configured-account", text: "The target's account obtains a token with correctly built credentials." },
      { id: "CRED-03.tricky-characters", text: "Accounts whose user ID or password contain `:`, `+`, `/`, `=`, spaces or non-ASCII characters obtain tokens.", needs: "accounts the target can create (the simulator); on a live target the configured accounts, whatever their characters, are CRED-03.configured-account's" },
    ],
    dependsOn: [],
    latitudes: ["token-format"],
  },
  {
    id: "CRED-04",
    area: "CRED",
    side: "client",
    level: "SHOULD",
    where: "any",
    statement: "Where no domain is configured, the client uses the default domain `AA`.",
    source: { section: "Resources and their fields › Client credentials", quote: "domain: The domain; when a default domain is normally used, the value is `AA`" },
    clauses: [
      { id: "CRED-04.default-domain", text: "With no REST domain configured, the Client ID's domain is `AA`." },
    ],
    dependsOn: ["CRED-01", "CRED-02", "REST-01"],
    latitudes: [],
  },
  {
    id: "CRED-05",
    area: "CRED",
    side: "service",
    level: "MUST",
    where: "any",
    statement: "The token endpoint also accepts the account's iPCC or organization in the Client ID's group element: such credentials obtain a token as the group's do.",
    source: { section: "Resources and their fields › Client credentials", quote: "group: The group; the values iPCC or organization are also accepted for this element" },
    clauses: [
      { id: "CRED-05.group-alternatives", text: "Correctly built credentials whose group is the account's iPCC or organization obtain a token.", needs: "an account whose iPCC or organization differs from its group, declared in the target config (`accounts.<env>.groupAlternatives`)" },
    ],
    dependsOn: ["CRED-03"],
    latitudes: ["token-format"],
  },
];
