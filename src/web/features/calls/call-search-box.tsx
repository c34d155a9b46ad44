/**
 * The call log search opened by the filter icon (DESIGN §6 [2]): phone number, call id or
 * transcript text, searched on the server. Typing is debounced so each keystroke is not a request.
 */
import { Search, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';

export const SEARCH_DEBOUNCE_MS = 300;

export function CallSearchBox({
  value,
  onSearch,
  onClose,
  autoFocus = true,
}: {
  value: string;
  onSearch: (text: string) => void;
  /** Closes the box; without it (a box always shown) there is only the clear button. */
  onClose?: () => void;
  /** Focus on opening: right for a box the user just opened, wrong for one shown with the page. */
  autoFocus?: boolean;
}) {
  const [text, setText] = useState(value);
  const inputRef = useRef<HTMLInputElement>(null);
  const latest = useRef(onSearch);
  latest.current = onSearch;

  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);
  // Back, forward or a link changed the search: show it (but never undo a space being typed).
  useEffect(() => setText((typed) => (typed.trim() === value ? typed : value)), [value]);
  useEffect(() => {
    const timer = setTimeout(() => latest.current(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <search
      className="flex items-center gap-2 rounded-xl border bg-card p-3 shadow-sm"
      data-testid="call-search"
    >
      <Search className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <Input
        ref={inputRef}
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onSearch(text.trim());
          if (e.key === 'Escape') onClose?.();
        }}
        placeholder="Search by phone number, call ID or transcript"
        aria-label="Search calls"
        maxLength={200}
        // One clear button, ours: the browser's own (type=search) would be a second one.
        className="min-w-0 flex-1 border-0 shadow-none focus-visible:ring-0 [&::-webkit-search-cancel-button]:appearance-none"
      />
      {text ? (
        <Button
          variant="ghost"
          size="icon"
          aria-label="Clear search"
          title="Clear search"
          onClick={() => {
            setText('');
            onSearch('');
            inputRef.current?.focus();
          }}
        >
          <X aria-hidden="true" />
        </Button>
      ) : (
        onClose && (
          <Button
            variant="ghost"
            size="icon"
            aria-label="Close search"
            title="Close search"
            onClick={onClose}
          >
            <X aria-hidden="true" />
          </Button>
        )
      )}
    </search>
  );
}
