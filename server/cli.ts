#!/usr/bin/env -S node --max-semi-space-size=4
// The `agency-desk` command (cli/program.ts). The C allocator is tuned before the program is even loaded:
// loading its modules starts the threads whose arenas the settings are to bound (tune-allocator.ts).
import './tune-allocator.js';

await import('./cli/program.js');
