/** A structured field (structured.ts) rendered as sections a person reads: headings, paragraphs, lists. */
import { type Block, type Section, sectionsOf } from './structured';

export function StructuredDocument({
  document,
  skip = [],
  level = 3,
}: {
  document: Record<string, unknown>;
  skip?: readonly string[];
  level?: 3 | 4;
}) {
  const Heading = level === 3 ? 'h3' : 'h4';
  const sections: Section[] = sectionsOf(document, skip);
  return (
    <div className="space-y-3">
      {sections.map((section) => (
        <section key={section.key} aria-label={section.heading}>
          <Heading className="mb-1 text-[13px] font-semibold text-muted">{section.heading}</Heading>
          <BlockView block={section.block} />
        </section>
      ))}
    </div>
  );
}

function BlockView({ block }: { block: Block }) {
  switch (block.kind) {
    case 'text':
      return <p className="whitespace-pre-wrap break-words">{block.text}</p>;
    case 'list': {
      const List = block.ordered ? 'ol' : 'ul';
      return (
        <List className={`${block.ordered ? 'list-decimal' : 'list-disc'} space-y-0.5 pl-5`}>
          {block.items.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, read once
            <li key={i} className="break-words">
              {item}
            </li>
          ))}
        </List>
      );
    }
    case 'items': {
      const List = block.ordered ? 'ol' : 'ul';
      return (
        <List className={`${block.ordered ? 'list-decimal' : 'list-disc'} space-y-1.5 pl-5`}>
          {block.items.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, read once
            <li key={i} className="break-words">
              {item.title && <span className="font-medium">{item.title}</span>}
              {item.lines.map((l) => (
                <span key={l.label} className="block text-[13px]">
                  {l.label && <span className="text-muted">{l.label}: </span>}
                  {l.text}
                </span>
              ))}
            </li>
          ))}
        </List>
      );
    }
    case 'fields':
      return (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-[13px]">
          {block.fields.map((f) => (
            <div key={f.label} className="contents">
              <dt className="text-muted">{f.label}</dt>
              <dd className="min-w-0 break-words">{f.text}</dd>
            </div>
          ))}
        </dl>
      );
  }
}
