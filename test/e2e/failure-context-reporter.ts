import { readFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Prints, for a test that failed, the page as Playwright saw it (the accessibility tree kept in its error
 * context). A CI run keeps only its log: without this, a failure there names a file the log
 * cannot show, and a failure that does not come back here cannot be understood.
 */
export default class FailureContextReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === test.expectedStatus) return;
    // Playwright attaches the same context once for each error of the test: it is printed once.
    const paths = new Set<string>();
    for (const attachment of result.attachments) {
      if (attachment.name !== 'error-context' || attachment.path === undefined || paths.has(attachment.path)) continue;
      paths.add(attachment.path);
      let context: string;
      try {
        context = readFileSync(attachment.path, 'utf8');
      } catch {
        continue;
      }
      // The context also repeats the error and the test's source, which the list reporter prints already.
      const snapshots = context.match(/```yaml\n[\s\S]*?```/g) ?? [];
      if (snapshots.length === 0) continue;
      console.log(`\nThe page when "${test.title}" failed:\n${snapshots.join('\n')}\n`);
    }
  }

  printsToStdio(): boolean {
    return false;
  }
}
