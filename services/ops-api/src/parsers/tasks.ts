import type { IdfExtraction } from '@corridor/contracts';
import type { PdfText } from '../documents/pdf-text';

/** What a reader process is asked to read: the text of a PDF, or an IDF export (JSON or CSV). */
export interface TaskIO {
  pdfText: { input: Uint8Array; output: PdfText };
  idfExport: { input: { format: 'json' | 'csv'; bytes: Uint8Array }; output: IdfExtraction };
}
export type TaskName = keyof TaskIO;

/** Parent → reader. */
export interface TaskMessage {
  id: number;
  task: TaskName;
  input: unknown;
  limits: { inflatedBytes: number };
}

/** Reader → parent: ready once its libraries are loaded, then one answer per task. */
export type WorkerMessage =
  | { ready: true }
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { code: string; message: string; details: unknown } };
