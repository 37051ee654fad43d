import { Type, type Static } from '@sinclair/typebox';
import { Role, Timestamp, Uuid } from '../http/schemas.js';
import { Email, NewPassword } from '../auth/schemas.js';

export const User = Type.Object({
  id: Uuid,
  email: Type.String(),
  role: Role,
  client_id: Type.Union([Uuid, Type.Null()]),
  created_at: Timestamp,
});
export type User = Static<typeof User>;

export const CreateUserBody = Type.Object(
  {
    email: Email,
    password: NewPassword,
    role: Role,
    clientId: Type.Optional(
      Type.Union([Uuid, Type.Null()], { description: 'Required for client_viewer, refused for the others' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateUserBody = Static<typeof CreateUserBody>;

export const UpdateUserBody = Type.Object(
  {
    email: Type.Optional(Email),
    password: Type.Optional(NewPassword),
    role: Type.Optional(Role),
    clientId: Type.Optional(Type.Union([Uuid, Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateUserBody = Static<typeof UpdateUserBody>;

export const UserParams = Type.Object({ id: Uuid });

/** PATCH /api/me: every user changes its own password, knowing the current one. */
export const ChangeOwnPasswordBody = Type.Object(
  { current_password: Type.String({ maxLength: 1024 }), new_password: NewPassword },
  { additionalProperties: false },
);
