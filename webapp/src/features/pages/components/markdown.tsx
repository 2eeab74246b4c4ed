import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * Links leave the app in a new tab; internal paths stay. Code blocks and
 * tables take the app's own styles, and since both may scroll sideways each
 * is a focusable region, so a keyboard can reach what overflows.
 */
const components: Components = {
  pre: ({ children }) => (
    <pre className="code-block" tabIndex={0}>
      {children}
    </pre>
  ),
  table: ({ children }) => (
    <div className="table-wrap" role="region" aria-label="Table" tabIndex={0}>
      <table className="table">{children}</table>
    </div>
  ),
  a: ({ href, children }) =>
    href && /^https?:\/\//.test(href) ? (
      <a href={href} className="link" target="_blank" rel="noreferrer">
        {children}
      </a>
    ) : (
      <a href={href} className="link">
        {children}
      </a>
    ),
};

/**
 * Renders a page's Markdown, GitHub's flavour (tables, as the API guide has). react-markdown builds React elements and
 * never injects raw HTML, so a page cannot run script.
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="prose">
      <ReactMarkdown components={components} remarkPlugins={[remarkGfm]}>{text}</ReactMarkdown>
    </div>
  );
}
