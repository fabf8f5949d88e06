import { AppError, unavailable } from '@corridor/platform/errors';

/** A PDF's text laid out as lines of cells (a cell = text separated from the next by a wide gap). */
export interface PdfText {
  pages: number;
  lines: string[][];
  /** Non-blank characters found: 0 for a scanned, image-only document. */
  textChars: number;
  /** Image draws seen on the pages read (a scan has some and no text). */
  images: number;
}

export interface PdfTextReader {
  /** Loads the PDF library; rejects with UNAVAILABLE (503) when it cannot be loaded. */
  ready(): Promise<void>;
  /** The text of a PDF; 422 UNPROCESSABLE when it cannot be parsed or has no text layer. */
  read(bytes: Uint8Array): Promise<PdfText>;
}

type Unpdf = typeof import('unpdf');

/** Pages read of a PDF: an IDF or a bill of lading is one to three; the rest of a longer file is not read. */
const MAX_PAGES = 20;
/** Images larger than this (pixels) are not decoded (pdf.js maxImageSize): a few bytes of JPEG may claim 65,535 × 65,535. */
const MAX_IMAGE_PIXELS = 16_000_000;
/** Pages with less text than this count as having no text layer. */
const MIN_TEXT_CHARS = 20;

interface Item {
  str: string;
  x: number;
  y: number;
  w: number;
  size: number;
}

/** Groups text items into lines (same baseline) and cells (split at gaps wider than about two spaces). */
export function layoutLines(items: Item[]): string[][] {
  const sorted = [...items].filter((i) => i.str.trim()).sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: Item[][] = [];
  for (const it of sorted) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(line[0]!.y - it.y) <= Math.max(2, it.size * 0.3)) line.push(it);
    else lines.push([it]);
  }
  return lines.map((line) => {
    line.sort((a, b) => a.x - b.x);
    const cells: string[] = [];
    let end = -Infinity;
    for (const it of line) {
      const gap = it.x - end;
      if (cells.length && gap <= it.size * 0.9) cells[cells.length - 1] += (gap > it.size * 0.15 ? ' ' : '') + it.str;
      else cells.push(it.str);
      end = it.x + it.w;
    }
    return cells.map((c) => c.replace(/\s+/g, ' ').trim()).filter(Boolean);
  });
}

/**
 * Reads PDF text with pdf.js (through unpdf), loaded on first use, in this thread: untrusted uploads
 * are read through the parser processes instead (src/parsers: memory, time and inflated-size
 * limits), which run this inside.
 */
export function pdfTextReader(load: () => Promise<Unpdf> = () => import('unpdf')): PdfTextReader {
  let lib: Promise<Unpdf> | undefined;
  const loaded = (): Promise<Unpdf> => {
    lib ??= load().catch((err: unknown) => {
      lib = undefined; // try again next time
      throw unavailable('The PDF reader', err);
    });
    return lib;
  };
  return {
    async ready() {
      await loaded();
    },
    async read(bytes) {
      const unpdf = await loaded();
      let doc;
      try {
        doc = await unpdf.getDocumentProxy(new Uint8Array(bytes), {
          stopAtErrors: true,
          verbosity: 0,
          maxImageSize: MAX_IMAGE_PIXELS,
          disableFontFace: true,
          useSystemFonts: false,
        });
      } catch (err) {
        throw new AppError('UNPROCESSABLE', 'The PDF could not be read: it is damaged, truncated or not a PDF', {
          reason: 'unreadable_pdf',
          cause: err instanceof Error ? err.message : String(err),
          check:
            'Check the document quality: download the form again from the issuing portal and upload the original PDF, not a re-save or a partial file.',
        });
      }
      try {
        const { OPS } = await unpdf.getResolvedPDFJS();
        const imageOps = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject]);
        const lines: string[][] = [];
        let textChars = 0;
        let images = 0;
        for (let p = 1; p <= Math.min(doc.numPages, MAX_PAGES); p++) {
          const page = await doc.getPage(p);
          const content = await page.getTextContent();
          const items: Item[] = [];
          for (const it of content.items) {
            if (!('str' in it) || !it.str) continue;
            const [a, b, , , x, y] = it.transform as number[];
            items.push({ str: it.str, x: x!, y: y!, w: it.width, size: Math.hypot(a!, b!) || 10 });
            textChars += it.str.replace(/\s/g, '').length;
          }
          const ops = await page.getOperatorList();
          images += ops.fnArray.filter((f) => imageOps.has(f)).length;
          lines.push(...layoutLines(items));
        }
        if (textChars < MIN_TEXT_CHARS) {
          throw new AppError('UNPROCESSABLE', 'The PDF has no text layer' + (images ? ': its pages are scanned images' : ''), {
            reason: 'no_text_layer',
            pages: doc.numPages,
            images,
            check:
              'Check the document quality: an image-only scan has no text layer. Upload the PDF as exported from the portal (with text), its JSON/CSV export, or run OCR on the scan first.',
          });
        }
        return { pages: doc.numPages, lines, textChars, images };
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw new AppError('UNPROCESSABLE', 'The PDF could not be read: its content is damaged', {
          reason: 'unreadable_pdf',
          cause: err instanceof Error ? err.message : String(err),
          check: 'Check the document quality: upload the original PDF again.',
        });
      } finally {
        await doc.loadingTask.destroy();
      }
    },
  };
}
