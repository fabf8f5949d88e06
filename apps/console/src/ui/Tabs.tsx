import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface Tab<K extends string> {
  key: K;
  label: ReactNode;
}

/** ARIA tabs with arrow-key movement; the panel is the caller's (labelled by the selected tab). */
export function Tabs<K extends string>({
  tabs,
  selected,
  onSelect,
  label,
}: {
  tabs: Tab<K>[];
  selected: K;
  onSelect: (k: K) => void;
  label: string;
}) {
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const move = (e: KeyboardEvent, i: number) => {
    const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!d) return;
    const next = tabs[(i + d + tabs.length) % tabs.length]!;
    onSelect(next.key);
    refs.current.get(next.key)?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((t, i) => (
        <button
          key={t.key}
          ref={(el) => void (el ? refs.current.set(t.key, el) : refs.current.delete(t.key))}
          type="button"
          role="tab"
          id={`tab-${t.key}`}
          aria-selected={t.key === selected}
          aria-controls={`panel-${t.key}`}
          tabIndex={t.key === selected ? 0 : -1}
          onClick={() => onSelect(t.key)}
          onKeyDown={(e) => move(e, i)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
