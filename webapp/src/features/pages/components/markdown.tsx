import ReactMarkdown, { type Components } from 'react-markdown';

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
 * Renders an operator's Markdown. react-markdown builds React elements and
 * never injects raw HTML, so a page cannot run script.
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="prose">
      <ReactMarkdown components={components}>{text}</ReactMarkdown>
    </div>
  );
}
