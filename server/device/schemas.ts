import { Type, type Static } from '@sinclair/typebox';
import { PlainText, Timestamp, Uuid } from '../http/schemas.js';
import { Scope } from '../tokens/scopes.js';

export const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

export const DeviceAuthorizationBody = Type.Object(
  {
    client_name: PlainText({ minLength: 1, maxLength: 100, description: 'What the script calls itself' }),
    scope: Type.String({ maxLength: 100, description: 'Space-separated scopes, e.g. "read import"' }),
    clientId: Type.Optional(Type.Union([Uuid, Type.Null()], { description: 'Ask for a token limited to this client' })),
  },
  { additionalProperties: false },
);
export type DeviceAuthorizationBody = Static<typeof DeviceAuthorizationBody>;

/** RFC 8628 §3.2. */
export const DeviceAuthorization = Type.Object({
  device_code: Type.String({ description: 'The script keeps it secret and polls POST /auth/token with it' }),
  user_code: Type.String({ description: 'What the person sees in the dashboard, e.g. WDJB-MJHT' }),
  verification_uri: Type.String(),
  verification_uri_complete: Type.String(),
  expires_in: Type.Integer({ description: 'Seconds (600)' }),
  interval: Type.Integer({ description: 'Seconds to wait between polls (5)' }),
});

// Other parameters are ignored, as RFC 6749 §3.2 requires ("MUST ignore unrecognized request parameters"):
// a password grant's username and password are not the reason it is refused; its grant_type is. The
// device code is checked once the grant type is known to be the device's (the route).
export const DeviceTokenBody = Type.Object({
  grant_type: Type.String({ maxLength: 100, description: DEVICE_GRANT_TYPE }),
  device_code: Type.Optional(Type.String({ maxLength: 100, description: 'Required with the device grant' })),
  client_id: Type.Optional(Type.String({ maxLength: 100, description: 'Accepted and ignored (RFC 8628 §3.4)' })),
});
export type DeviceTokenBody = Static<typeof DeviceTokenBody>;

/** RFC 6749 §5.1. */
export const DeviceAccessToken = Type.Object({
  access_token: Type.String({ description: 'An API token (adk_pat_…) owned by the person who approved' }),
  token_type: Type.Literal('bearer'),
  scope: Type.String(),
  client_id: Type.Union([Uuid, Type.Null()], {
    description:
      "The one client of the agency the token is limited to, else null. A Client Viewer's approval limits it to " +
      "their client, whatever the request asked (not OAuth's client_id: this API names no OAuth clients)",
  }),
});

/** RFC 6749 §5.2 and RFC 8628 §3.5. */
export const OAuthError = Type.Object({
  error: Type.Union(
    [
      'authorization_pending',
      'slow_down',
      'access_denied',
      'expired_token',
      'invalid_grant',
      'invalid_request',
      'unsupported_grant_type',
    ].map((code) => Type.Literal(code)),
  ),
  error_description: Type.String(),
});
export type OAuthError = Static<typeof OAuthError>;

/** A request waiting for a person, as the dashboard shows it. */
export const PendingDeviceRequest = Type.Object({
  user_code: Type.String(),
  client_name: Type.String(),
  scopes: Type.Array(Scope),
  client: Type.Union([Type.Object({ id: Uuid, name: Type.String() }), Type.Null()], {
    description: 'The one client asked for; null: every client the approver sees',
  }),
  description: Type.String({ description: 'The request in words, for the prompt' }),
  created_at: Timestamp,
  expires_at: Timestamp,
});
export type PendingDeviceRequest = Static<typeof PendingDeviceRequest>;

export const UserCodeBody = Type.Object(
  { user_code: Type.String({ minLength: 1, maxLength: 20 }) },
  { additionalProperties: false },
);
