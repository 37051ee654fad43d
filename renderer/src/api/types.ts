import type { Static } from '@sinclair/typebox';
import type { ErrorDetail, ErrorResponse, Role, Success } from '../../../server/http/schemas.js';
import type {
  LoginBody,
  Me,
  SessionUser,
  SetupBody,
  SetupStatus,
  TokenResponse,
} from '../../../server/auth/schemas.js';
import type { Client, CreateClientBody, CreatedClient } from '../../../server/clients/schemas.js';
import type {
  DryRunResponse,
  DuplicateOf,
  DuplicatePolicy,
  HealthStatus,
  Location,
  LocationsQuery,
  PreviewRow,
  UploadResponse,
  UploadRow,
} from '../../../server/locations/schemas.js';
import type { CreateUserBody, UpdateUserBody, User } from '../../../server/users/schemas.js';

/** The API's shapes, each the static type of the server's TypeBox schema: one source of truth. */
export type ApiErrorBody = Static<typeof ErrorResponse>;
export type ApiErrorDetail = Static<typeof ErrorDetail>;
export type RoleName = Static<typeof Role>;
export type SuccessBody = Static<typeof Success>;

export type LoginRequest = Static<typeof LoginBody>;
export type SetupRequest = Static<typeof SetupBody>;
export type SetupState = Static<typeof SetupStatus>;
export type Tokens = Static<typeof TokenResponse>;
export type SignedInUser = Static<typeof SessionUser>;
export type Profile = Static<typeof Me>;

export type ClientRow = Static<typeof Client>;
export type NewClient = Static<typeof CreateClientBody>;
export type CreatedClientBody = Static<typeof CreatedClient>;

export type LocationRow = Static<typeof Location>;
export type LocationListQuery = Static<typeof LocationsQuery>;
export type Health = Static<typeof HealthStatus>;
export type ImportRow = Static<typeof UploadRow>;
export type DryRun = Static<typeof DryRunResponse>;
export type DryRunRow = Static<typeof PreviewRow>;
export type Duplicate = Static<typeof DuplicateOf>;
export type DuplicateHandling = Static<typeof DuplicatePolicy>;
export type Imported = Static<typeof UploadResponse>;

export type UserRow = Static<typeof User>;
export type NewUser = Static<typeof CreateUserBody>;
export type UserChange = Static<typeof UpdateUserBody>;

export const ROLE_LABELS: Record<RoleName, string> = {
  admin: 'Admin',
  viewer: 'Viewer',
  client_viewer: 'Client Viewer',
};
