import { describe, expect, it } from 'vitest';
import { NewPassword, SetupBody } from '../../server/auth/schemas.js';
import { CreateClientBody } from '../../server/clients/schemas.js';
import { CreateApiTokenBody } from '../../server/tokens/schemas.js';
import { bodyErrors } from '../../server/http/validation.js';
import { ApiError } from '../../renderer/src/api/http.js';
import {
  PASSWORD_RULE,
  fieldProblems,
  hasProblems,
  serverFieldProblems,
} from '../../renderer/src/forms/field-words.js';

describe('fieldProblems: the server schema, checked in the browser, in words', () => {
  it('setup with a bad e-mail and a short password: one sentence each, no validator jargon', () => {
    const problems = fieldProblems(SetupBody, { organization_name: 'Northwind', email: 'nope', password: 'short' });
    expect(problems).toEqual({
      email: 'Enter an e-mail address, like name@agency.com.',
      password: 'Use at least 8 characters.',
    });
  });

  it('a valid setup has nothing to say', () => {
    const problems = fieldProblems(SetupBody, {
      organization_name: 'Northwind',
      email: 'owner@agency.test',
      password: 'long enough',
    });
    expect(hasProblems(problems)).toBe(false);
  });

  it('the numbers come from the schema: a nullable text over its maximum says its own maximum', () => {
    const problems = fieldProblems(CreateClientBody, { name: 'Harbor', industry: 'x'.repeat(101), website: null });
    expect(problems).toEqual({ industry: 'Use at most 100 characters; this has 101.' });
  });

  it("a control character pasted into a name, a nullable industry or a token name: the server's words, before sending", () => {
    expect(fieldProblems(CreateClientBody, { name: 'a\u0000b', industry: 'Food\u001b', website: null })).toEqual({
      name: 'This holds the control character U+0000: remove it.',
      industry: 'This holds the control character U+001B: remove it.',
    });
    expect(fieldProblems(CreateApiTokenBody, { name: 'Sync\u007f', scopes: ['read'] })).toEqual({
      name: 'This holds the control character U+007F: remove it.',
    });
  });

  it('an empty name and no scope on a token', () => {
    expect(fieldProblems(CreateApiTokenBody, { name: '', scopes: [] })).toEqual({
      name: 'Fill this in.',
      scopes: 'Choose at least one.',
    });
  });
});

describe('the e-mail rule is the one the routes apply', () => {
  const addresses = [
    'owner@agency.test',
    'a.b+c@example.co.uk',
    'nope',
    'a@b',
    '@agency.test',
    'a b@agency.test',
    'x@-y.z',
  ];
  for (const email of addresses) {
    it(`"${email}": browser and server agree`, () => {
      const browser = fieldProblems(SetupBody, { organization_name: 'N', email, password: 'long enough' }).email;
      const server = bodyErrors(SetupBody, { organization_name: 'N', email, password: 'long enough' });
      expect(browser === undefined).toBe(server.length === 0);
    });
  }
});

describe('serverFieldProblems: an error that still arrives, at its field', () => {
  it('words the validator details that name a field of the form and ignores the others', () => {
    const error = new ApiError(400, 'email must match format "email"', [
      { path: '/body/email', message: 'must match format "email"' },
      { path: '/body/password', message: 'must NOT have fewer than 8 characters' },
      { path: '/body/other', message: 'is not a known field' },
    ]);
    expect(serverFieldProblems(error, ['email', 'password'] as const)).toEqual({
      email: 'Enter an e-mail address, like name@agency.com.',
      password: 'Use at least 8 characters.',
    });
  });

  it('says nothing for an error that is not the API’s', () => {
    expect(serverFieldProblems(new Error('boom'), ['email'] as const)).toEqual({});
  });
});

describe('PASSWORD_RULE: the hint under a new password', () => {
  it('is the schema’s own words, with the length the schema checks', () => {
    expect(PASSWORD_RULE).toBe('At least 8 characters');
    expect(PASSWORD_RULE).toContain(`${NewPassword.minLength} characters`);
  });
});
