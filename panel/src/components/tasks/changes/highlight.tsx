/**
 * One line of code, syntax-highlighted by refractor (Prism's grammars, as a syntax tree rather than
 * HTML: nothing is injected, every token is a span with Prism's classes, coloured in styles.css).
 * A line is highlighted on its own, so the virtualised diff highlights only the rows on screen.
 */
import { type ReactNode, useMemo } from 'react';
import { refractor } from 'refractor';
import jsx from 'refractor/jsx';
import tsx from 'refractor/tsx';

refractor.register(jsx);
refractor.register(tsx);

export function CodeLine({ text, language }: { text: string; language: string | null }) {
  const nodes = useMemo(() => {
    if (!language || !refractor.registered(language)) return text;
    return render(refractor.highlight(text, language));
  }, [text, language]);
  return <>{nodes}</>;
}

type Root = ReturnType<typeof refractor.highlight>;
type Node = Root['children'][number];
type Parent = Root | Extract<Node, { type: 'element' }>;

function render(node: Parent): ReactNode[] {
  return node.children.map((child: Node, index) => {
    if (child.type === 'text') return child.value;
    if (child.type !== 'element') return null;
    const className = child.properties.className;
    return (
      // biome-ignore lint/suspicious/noArrayIndexKey: tokens of one line never reorder
      <span key={index} className={Array.isArray(className) ? className.join(' ') : undefined}>
        {render(child)}
      </span>
    );
  });
}
