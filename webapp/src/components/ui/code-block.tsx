import type { HTMLAttributes, ReactNode } from 'react';
import { CopyButton } from './copy-button';

type CodeBlockProps = HTMLAttributes<HTMLPreElement> & {
  /** What the copy button copies: the code as it runs (it may differ from what is shown, e.g. a masked key). */
  text: string;
  /** The copy button's name: 'Copy curl example'. */
  copyLabel: string;
  children: ReactNode;
};

const copiedToast = { title: 'Copied', description: 'The code has been copied to your clipboard.' };

/** A block of code (scrolls sideways, focusable) with a copy button in its corner (issue 38). */
export function CodeBlock({ text, copyLabel, children, className, ...pre }: CodeBlockProps) {
  return (
    <div className="code-block-wrap">
      <pre className={['code-block', className].filter(Boolean).join(' ')} tabIndex={0} {...pre}>
        {children}
      </pre>
      <CopyButton text={text} label={copyLabel} copiedToast={copiedToast} size="sm" className="code-block-copy" />
    </div>
  );
}
