import { useEffect } from 'react';
import type { DesktopApi, MenuCommand } from '../../main/desktop-api.js';

/** The desktop app's preload API, or undefined in a plain browser. */
export function desktopApi(): DesktopApi | undefined {
  return window.agencyDesk;
}

/** Runs `onCommand` for the desktop menu's commands while the calling component is shown. */
export function useMenuCommand(command: MenuCommand, onCommand: () => void): void {
  useEffect(() => {
    const api = desktopApi();
    if (!api) return;
    return api.onMenuCommand((received) => {
      if (received === command) onCommand();
    });
  }, [command, onCommand]);
}
