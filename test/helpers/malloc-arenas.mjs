// Preloaded (`node --import`) into a server process by test/server/allocator-process.test.ts: on SIGUSR2
// it writes glibc's malloc_stats(), one "Arena N:" block an arena, to standard error between two marks. It
// calls nothing else: the process's own settings (server/tune-allocator.ts) are what the test looks at.
import { createRequire } from 'node:module';
import process from 'node:process';

const koffi = createRequire(import.meta.url)('koffi');
const mallocStats = koffi.load('libc.so.6').func('void malloc_stats(void)');

process.on('SIGUSR2', () => {
  process.stderr.write('malloc_stats begin\n');
  mallocStats();
  process.stderr.write('malloc_stats end\n');
});
