import { describe, expect, it } from 'vitest';
import { DASHBOARD_CSP } from '../../server/http/dashboard.js';
import {
  dashboardWindowOptions,
  guardNavigation,
  isAppUrl,
  isSafeExternalUrl,
  secureSession,
} from '../../main/window.js';
import { FakeSession, FakeWebContents } from './fake-electron.js';

const ORIGIN = 'http://127.0.0.1:4870';
/** Pages whose origin is opaque: URL.origin says "null" for each. */
const OPAQUE_URLS = [
  'file:///etc/passwd',
  'data:text/html,<script>alert(1)</script>',
  'about:blank',
  'javascript:alert(1)',
  'blob:null/0b1a1c6e-0000-4000-8000-000000000000',
];

describe('the dashboard window', () => {
  it('keeps Node out of the page: context isolation, sandbox, web security, no webview', () => {
    const { webPreferences } = dashboardWindowOptions('/app/dist/main/preload.cjs');
    expect(webPreferences).toMatchObject({
      preload: '/app/dist/main/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
    expect(webPreferences?.enableBlinkFeatures).toBeUndefined();
  });

  it('has no spellchecker, which would download dictionaries from Google', () => {
    expect(dashboardWindowOptions('/app/dist/main/preload.cjs').webPreferences?.spellcheck).toBe(false);
  });
});

describe('isAppUrl', () => {
  it.each([
    [`${ORIGIN}/clients/42`, true],
    [`${ORIGIN}`, true],
    ['http://127.0.0.1:4871/', false],
    ['http://localhost:4870/', false],
    ['https://127.0.0.1:4870/', false],
    ['http://127.0.0.1:4870.evil.example/', false],
    ['http://evil.example/?http://127.0.0.1:4870', false],
    ['file:///etc/passwd', false],
    ['not a url', false],
  ])('%s -> %s', (url, expected) => {
    expect(isAppUrl(url, ORIGIN)).toBe(expected);
  });

  // new URL('null:').origin is "null", and so is every opaque origin's: "null" must match nothing.
  it.each(OPAQUE_URLS)('with no app origin (null: or none), %s -> false', (url) => {
    expect(isAppUrl(url, 'null:')).toBe(false);
    expect(isAppUrl(url, null)).toBe(false);
  });
});

describe('isSafeExternalUrl', () => {
  it.each([
    ['https://example.com/', true],
    ['mailto:someone@example.com', true],
    ['file:///bin/sh', false],
    ['smb://server/share', false],
    ['javascript:alert(1)', false],
    ['ms-settings:', false],
  ])('%s -> %s', (url, expected) => {
    expect(isSafeExternalUrl(url)).toBe(expected);
  });
});

describe('the navigation guard', () => {
  function guarded(origin: () => string | null = () => ORIGIN) {
    const contents = new FakeWebContents();
    const opened: string[] = [];
    guardNavigation(contents, origin, async (url) => {
      opened.push(url);
    });
    return { contents, opened };
  }

  it('lets the dashboard move within its own origin', () => {
    const { contents, opened } = guarded();
    expect(contents.navigate(`${ORIGIN}/clients`)).toBe(true);
    expect(contents.navigate(`${ORIGIN}/login`, 'will-redirect')).toBe(true);
    expect(opened).toEqual([]);
  });

  it('stops navigation elsewhere and hands web links to the system browser', () => {
    const { contents, opened } = guarded();
    expect(contents.navigate('https://example.com/help')).toBe(false);
    expect(contents.navigate('https://evil.example/', 'will-redirect')).toBe(false);
    expect(contents.navigate('https://ads.example/', 'will-frame-navigate')).toBe(false);
    expect(opened).toEqual(['https://example.com/help', 'https://evil.example/', 'https://ads.example/']);
  });

  it('drops other schemes without opening anything', () => {
    const { contents, opened } = guarded();
    expect(contents.navigate('file:///etc/passwd')).toBe(false);
    expect(contents.navigate('smb://attacker/share')).toBe(false);
    expect(opened).toEqual([]);
  });

  it('denies every new window; web links open in the system browser', () => {
    const { contents, opened } = guarded();
    expect(contents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: `${ORIGIN}/popup` })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com/', `${ORIGIN}/popup`]);
  });

  it('refuses <webview> tags', () => {
    const { contents } = guarded();
    let prevented = false;
    contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
  });

  it.each([
    ['null:', () => 'null:'],
    ['none', () => null],
  ])('with no app origin (%s) denies every navigation: file:, data:, about:blank, javascript:', (_name, origin) => {
    const { contents, opened } = guarded(origin);
    for (const url of OPAQUE_URLS) {
      for (const event of ['will-navigate', 'will-redirect', 'will-frame-navigate'] as const)
        expect(contents.navigate(url, event), `${event} ${url}`).toBe(false);
    }
    // Nothing is the app now: even its last address is a web link like any other.
    expect(contents.navigate(`${ORIGIN}/clients`)).toBe(false);
    expect(opened).toEqual([`${ORIGIN}/clients`]);
  });

  it('follows the server when it moves to another port', () => {
    let origin = ORIGIN;
    const { contents } = guarded(() => origin);
    origin = 'http://127.0.0.1:5000';
    expect(contents.navigate(`${ORIGIN}/clients`)).toBe(false);
    expect(contents.navigate('http://127.0.0.1:5000/clients')).toBe(true);
  });
});

describe('the session', () => {
  it('grants no permission, asked or checked', () => {
    const session = new FakeSession();
    secureSession(session, () => ORIGIN);
    const answers: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal']) {
      session.permissionRequestHandler?.(null, permission, (granted) => answers.push(granted));
    }
    expect(answers).toEqual([false, false, false, false]);
    expect(session.permissionCheckHandler?.()).toBe(false);
  });

  it("adds the dashboard's CSP to an app response that has none", () => {
    const session = new FakeSession();
    secureSession(session, () => ORIGIN);
    const headers = session.respond(`${ORIGIN}/some-error`, { 'content-type': ['text/html'] });
    expect(headers['Content-Security-Policy']).toEqual([DASHBOARD_CSP]);
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).toContain("object-src 'none'");
  });

  it("keeps the server's own CSP, and leaves other origins alone", () => {
    const session = new FakeSession();
    secureSession(session, () => ORIGIN);
    const own = { 'content-security-policy': ["default-src 'none'"] };
    expect(session.respond(`${ORIGIN}/`, own)).toEqual(own);
    expect(session.respond('https://example.com/', {})).toEqual({});
  });
});
