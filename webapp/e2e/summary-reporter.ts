import type { FullResult, Reporter, Suite, TestCase } from '@playwright/test/reporter';
import { basename } from 'node:path';

/**
 * Prints the run's closing line, `N passed, N failed`, which CI reads. A
 * journey step that did not run because an earlier step of the same seller
 * failed (or because the server never started) counts as failed. A test
 * that skipped itself with test.skip(condition, reason) (a page another
 * change has yet to add) is neither: the line then ends `, N skipped`.
 * Before it, the slowest journey files and tests, for make test's timings.
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
    process.stdout.write(slowest(tests));
  }

  // After every reporter's onEnd, so that this is the last line printed.
  async onExit() {
    process.stdout.write(`\n${this.line}\n`);
  }

  printsToStdio() {
    return true;
  }
}

const TOP = 8;

/** The slowest files (their tests' time added up) and tests, TOP of each. */
export function slowest(tests: TestCase[]): string {
  const took = (t: TestCase) => t.results.reduce((sum, r) => sum + r.duration, 0);
  const file = (t: TestCase) => basename(t.location.file);
  const byFile = new Map<string, number>();
  for (const t of tests) byFile.set(file(t), (byFile.get(file(t)) ?? 0) + took(t));
  const rows = (title: string, entries: [string, number][]) =>
    entries.length === 0
      ? ''
      : `${title}:\n` +
        entries
          .sort((a, b) => b[1] - a[1])
          .slice(0, TOP)
          .map(([name, ms]) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${name}\n`)
          .join('');
  return (
    rows('slowest journey files', [...byFile]) +
    rows(
      'slowest journeys',
      tests.map((t) => [`${file(t)} ${t.titlePath().slice(3).join(' > ')}`, took(t)]),
    )
  );
}
