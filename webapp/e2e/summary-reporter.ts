import type { FullResult, Reporter, Suite } from '@playwright/test/reporter';

/**
 * Prints the run's closing line, `N passed, N failed`, which CI reads. A
 * journey step that did not run because an earlier step of the same seller
 * failed (or because the server never started) counts as failed. A test
 * that skipped itself with test.skip(condition, reason) (a page another
 * change has yet to add) is neither: the line then ends `, N skipped`.
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
    const skipped = tests.filter((t) => t.outcome() === 'skipped' && t.annotations.some((a) => a.type === 'skip')).length;
    let failed = tests.length - passed - skipped;
    if (result.status !== 'passed' && failed === 0) failed = 1;
    this.line = `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
  }

  // After every reporter's onEnd, so that this is the last line printed.
  async onExit() {
    process.stdout.write(`\n${this.line}\n`);
  }

  printsToStdio() {
    return true;
  }
}
