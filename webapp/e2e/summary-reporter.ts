import type { FullResult, Reporter, Suite } from '@playwright/test/reporter';

/**
 * Prints the run's closing line, `N passed, N failed`, which CI reads. A
 * journey step that did not run because an earlier step of the same seller
 * failed (or because the server never started) counts as failed: the suite
 * skips nothing on purpose.
 */
export default class SummaryReporter implements Reporter {
  private suite: Suite | undefined;
  private line = '';

  onBegin(_config: unknown, suite: Suite) {
    this.suite = suite;
  }

  onEnd(result: FullResult) {
    const tests = this.suite?.allTests() ?? [];
    const passed = tests.filter((t) => t.outcome() === 'expected' || t.outcome() === 'flaky').length;
    let failed = tests.length - passed;
    if (result.status !== 'passed' && failed === 0) failed = 1;
    this.line = `${passed} passed, ${failed} failed`;
  }

  // After every reporter's onEnd, so that this is the last line printed.
  async onExit() {
    process.stdout.write(`\n${this.line}\n`);
  }

  printsToStdio() {
    return true;
  }
}
