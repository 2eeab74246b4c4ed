import AxeBuilder from '@axe-core/playwright';
import { test, type Page } from '@playwright/test';

/** The WCAG 2.0 and 2.1 level A and AA rules of axe-core (issue 15). */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const BLOCKING = new Set(['serious', 'critical']);

/**
 * Runs axe-core over the page as it is now (call it once the page has
 * settled: its heading and data shown, a dialog open) and fails listing
 * every serious or critical violation: rule id, impact, help and the
 * selectors of the offending elements; axe's full answer for them is
 * attached to the test. Minor and moderate findings do not fail.
 */
export async function expectNoSeriousA11yViolations(page: Page, label: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const blocking = violations.filter((v) => v.impact && BLOCKING.has(v.impact));
  if (blocking.length === 0) return;
  await test.info().attach(`axe violations: ${label}`, {
    body: JSON.stringify(blocking, null, 2),
    contentType: 'application/json',
  });
  const lines = blocking.flatMap((v) => [
    `  ${v.id} (${v.impact}): ${v.help} [${v.helpUrl}]`,
    ...v.nodes.map((node) => `    ${node.target.map(String).join(' >> ')}`),
  ]);
  throw new Error(
    `${blocking.length} serious or critical accessibility violation(s) on ${label} (${page.url()}):\n${lines.join('\n')}`,
  );
}
