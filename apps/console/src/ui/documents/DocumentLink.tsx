import { useState } from 'react';
import { call } from '../../api/client';
import { useExplainError } from '../../api/messages';
import { documentGet } from './documents';

/**
 * Downloads a document through a fresh signed link (links expire, so one is asked for at the
 * moment of the click rather than kept from the list).
 */
export function DocumentLink({ documentId, label }: { documentId: string; label: string }) {
  const explain = useExplainError();
  const [failure, setFailure] = useState<string | null>(null);
  async function open() {
    setFailure(null);
    try {
      const doc = await call(documentGet, { params: { documentId } });
      const a = document.createElement('a');
      a.href = doc.download.url;
      a.download = doc.filename;
      document.body.append(a);
      a.click();
      a.remove();
    } catch (e) {
      setFailure(explain(e).summary);
    }
  }
  return (
    <>
      <button type="button" className="link-button" onClick={() => void open()}>
        {label}
      </button>
      {failure && (
        <span role="alert" className="field-error">
          {' '}
          {failure}
        </span>
      )}
    </>
  );
}
