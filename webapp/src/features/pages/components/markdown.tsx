import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from '@/components/ui/code-block';

type HastNode = { type: string; value?: string; children?: HastNode[] };

/** The text of a Markdown node (a code block's code, for its copy button). */
function textOf(node: HastNode | undefined): string {
  if (!node) return '';
  if (typeof node.value === 'string') return node.value;
  return (node.children ?? []).map(textOf).join('');
}

/**
 * Links leave the app in a new tab; internal paths stay. Code blocks and
 * tables take the app's own styles (a code block with a copy button), and since both may scroll sideways each
 * is a focusable region, so a keyboard can reach what overflows.
 */
const components: Components = {
  pre: ({ children, node }) => (
    <CodeBlock text={textOf(node as HastNode | undefined).replace(/\n$/, '')} copyLabel="Copy code">
      {children}
    </CodeBlock>
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
