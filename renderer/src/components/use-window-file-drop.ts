import { useEffect } from 'react';
import { hasFiles } from './FileDropZone.js';

/**
 * Drops of files anywhere in the window while `enabled`: `onDragging` says when a file hovers,
 * `onFile` receives the first dropped file. The import dialog's own zone stops its drops on the way.
 */
export function useWindowFileDrop(
  enabled: boolean,
  onFile: (file: File) => void,
  onDragging: (dragging: boolean) => void,
): void {
  useEffect(() => {
    if (!enabled) return;
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth++;
      onDragging(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) onDragging(false);
    };
    const over = (event: DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    const drop = (event: DragEvent) => {
      depth = 0;
      onDragging(false);
      if (!hasFiles(event)) return;
      event.preventDefault();
      const file = event.dataTransfer?.files[0];
      if (file) onFile(file);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [enabled, onFile, onDragging]);
}
