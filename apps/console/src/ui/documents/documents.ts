import { z } from 'zod';
import { DocumentUploadForm, documentsEndpoints } from '@corridor/contracts/documents';
import { endpoint } from '../../api/endpoint';

export const documentUpload = endpoint(documentsEndpoints, 'documents.upload');
export const documentGet = endpoint(documentsEndpoints, 'documents.get');
export const documentsList = endpoint(documentsEndpoints, 'documents.list');

/** A file input's value as react-hook-form holds it (its FileList): one file chosen. */
const oneFile = z.custom<FileList>((v) => typeof FileList !== 'undefined' && v instanceof FileList && v.length === 1, 'choose a file');

/**
 * The upload form of a document, checked before it is sent: the contract's DocumentUploadForm's
 * kind, and the file chosen (the contract's `file` is the multipart part the browser makes of it).
 */
export const DocumentUploadValues = DocumentUploadForm.pick({ kind: true }).extend({ file: oneFile });
export type DocumentUploadValues = z.output<typeof DocumentUploadValues>;

/** The multipart body of POST /documents/upload for the checked values. */
export function uploadBody({ kind, file }: DocumentUploadValues): FormData {
  const body = new FormData();
  body.append('kind', kind);
  body.append('file', file[0]!, file[0]!.name);
  return body;
}
