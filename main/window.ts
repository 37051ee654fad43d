import type { BrowserWindowConstructorOptions } from 'electron';
import { DASHBOARD_CSP } from '../server/http/dashboard.js';

/**
 * The dashboard window and the rules that keep it on the app's own origin. Item numbers refer to
 * Electron's security checklist (https://www.electronjs.org/docs/latest/tutorial/security).
 */
export function dashboardWindowOptions(preloadFile: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    title: 'Agency Desk',
    show: false,
    webPreferences: {
      preload: preloadFile,
      // Checklist 2, 3, 4: no Node in the page, the preload in its own world, the renderer sandboxed.
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      contextIsolation: true,
      sandbox: true,
      // Checklist 6, 8, 9, 10: web security on, no insecure content, no experimental or Blink features.
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      enableBlinkFeatures: undefined,
      // Checklist 11, 12: no <webview> at all (will-attach-webview is refused as well).
      webviewTag: false,
      navigateOnDragDrop: false,
      // On Linux and Windows Chromium's spellchecker downloads Hunspell dictionaries from Google: a
      // local data tool asks the network for nothing.
      spellcheck: false,
    },
  };
}

/**
 * Checklist 7: the dashboard's Content-Security-Policy is the server's own (one source of truth); the
 * shell adds it to any response from the app's origin that came without one (an error page, say),
 * so nothing the window shows runs without a CSP.
 */
export const CONTENT_SECURITY_POLICY = DASHBOARD_CSP;

/**
 * Where the app's pages come from, read at each event: the server's URL, or null while there is none
 * (the server is stopped for a passphrase switch; the unlock window, a data: URL, has no origin at all).
 */
export type AppOrigin = () => string | null;

/**
 * Exactly the app's origin: same scheme, host and port. `http://127.0.0.1:4870.evil.com` is not it.
 * An opaque origin ("null": file:, data:, about:blank, javascript:, sandboxed frames) matches nothing,
 * not even another "null": it names no origin at all (HTML, "origin", opaque origins).
 */
export function isAppUrl(url: string, appOrigin: string | null): boolean {
  if (appOrigin === null) return false;
  try {
    const origin = new URL(url).origin;
    return origin !== 'null' && origin === new URL(appOrigin).origin;
  } catch {
    return false;
  }
}

/** Links the system browser may open (checklist 15): web and mail only, never file:, smb: or custom schemes. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    return ['https:', 'http:', 'mailto:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

type NavigationEvent = { url: string; preventDefault(): void };

/** The part of WebContents the guard uses (index.ts checks that the real one fits). */
export interface GuardedContents {
  on(
    event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate',
    listener: (event: NavigationEvent) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void;
}

/**
 * Checklist 13 and 14: navigation and new windows stay on the app's origin; anything else that is a
 * web or mail link goes to the system browser, and the rest is dropped. `appOrigin` is read at each
 * event because the server may move to another port when the user switches to a passphrase; while it
 * is null, no navigation is allowed at all.
 */
export function guardNavigation(
  contents: GuardedContents,
  appOrigin: AppOrigin,
  openExternal: (url: string) => Promise<void>,
): void {
  const leaveApp = (url: string): void => {
    if (isSafeExternalUrl(url)) void openExternal(url).catch(() => undefined);
  };
  const confine = (event: NavigationEvent): void => {
    if (isAppUrl(event.url, appOrigin())) return;
    event.preventDefault();
    leaveApp(event.url);
  };
  for (const navigation of ['will-navigate', 'will-redirect', 'will-frame-navigate'] as const)
    contents.on(navigation, confine);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    // Even the app's own pages open in the one window: a second window would have no guard.
    leaveApp(url);
    return { action: 'deny' };
  });
}

/** The part of Session the shell uses. */
export interface GuardedSession {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: () => boolean): void;
  webRequest: {
    onHeadersReceived(
      listener: (
        details: { url: string; responseHeaders?: Record<string, string[]> },
        callback: (response: { responseHeaders?: Record<string, string | string[]> }) => void,
      ) => void,
    ): void;
  };
}

/** Checklist 5 and 7: no permission is ever granted, and every app response carries a CSP. */
export function secureSession(session: GuardedSession, appOrigin: AppOrigin): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!isAppUrl(details.url, appOrigin())) return callback({});
    const headers = details.responseHeaders ?? {};
    if (Object.keys(headers).some((name) => name.toLowerCase() === 'content-security-policy')) return callback({});
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}
