/**
 * An acknowledgement's text in the inbox: six lines at first, and when that cuts it (an experiment's
 * verdict or a route advice with its numbers, on a narrow screen) the whole of it a click away.
 */
import { useLayoutEffect, useRef, useState } from 'react';

export function AckBody({ body }: { body: string }) {
  const text = useRef<HTMLParagraphElement>(null);
  const [open, setOpen] = useState(false);
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const shown = text.current;
    if (!shown || open) return;
    const measure = () => setCut(shown.scrollHeight > shown.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(shown);
    return () => observer.disconnect();
  }, [open]);
  return (
    <>
      <p
        ref={text}
        className={`whitespace-pre-line break-words ${open ? '' : 'line-clamp-6'}`}
        data-testid="ack-body"
      >
        {body}
      </p>
      {(cut || open) && (
        <button
          type="button"
          className="text-accent underline underline-offset-2"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Show less' : 'Show all'}
        </button>
      )}
    </>
  );
}
