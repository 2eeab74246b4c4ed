import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/** Links leave the app in a new tab; internal paths stay. */
const components: Components = {
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
