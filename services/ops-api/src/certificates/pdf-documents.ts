import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import type { IdfLineItem } from '@corridor/contracts';

/** Everything the three PDFs print; gathered once by the service. */
export interface CertificatePdfData {
  number: string;
  verificationCode: string;
  verifyUrl: string;
  issuedAt: Date;
  validUntil: Date;
  company: { id: number; name: string; country: string; taxPin: string | null };
  applicantEmail: string;
  cargo: {
    id: number;
    idfNumber: string;
    importerName: string;
    importerPin: string | null;
    consignor: string | null;
    countryOfOrigin: string | null;
    portOfDischarge: string | null;
    invoiceValue: number | null;
    currency: string | null;
    lineItems: IdfLineItem[];
  };
  fee: { amount: number; currency: string };
  invoiceNumber: string;
  receiptNumber: string;
  payment: { reference: string; method: string; paidAt: Date };
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const INK = rgb(0.1, 0.12, 0.16);
const MUTED = rgb(0.38, 0.4, 0.45);

/** The standard fonts encode WinAnsi only: anything else prints as '?', never a crash. */
const printable = (s: string): string => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
const money = (amount: number, currency: string) =>
  `${currency} ${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const day = (d: Date) => d.toISOString().slice(0, 10);

/** A one-page A4 sheet with a moving baseline: title, labelled rows, tables. */
class Sheet {
  y = A4[1] - MARGIN;
  private constructor(
    readonly doc: PDFDocument,
    readonly page: PDFPage,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
  ) {}

  static async create(title: string, subject: string, at: Date): Promise<Sheet> {
    const doc = await PDFDocument.create();
    doc.setTitle(title);
    doc.setSubject(subject);
    doc.setProducer('Corridor ops-api');
    doc.setCreator('Corridor');
    doc.setCreationDate(at);
    doc.setModificationDate(at);
    return new Sheet(doc, doc.addPage(A4), await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold));
  }

  text(s: string, x: number, opts: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb> } = {}): void {
    this.page.drawText(printable(s), {
      x,
      y: this.y,
      size: opts.size ?? 10,
      font: opts.bold ? this.bold : this.regular,
      color: opts.color ?? INK,
    });
  }
  heading(s: string, size = 18): void {
    this.text(s, MARGIN, { size, bold: true });
    this.y -= size + 8;
  }
  row(label: string, value: string): void {
    this.text(label, MARGIN, { color: MUTED });
    this.text(value, MARGIN + 150, { bold: true });
    this.y -= 16;
  }
  gap(h = 10): void {
    this.y -= h;
  }
  rule(): void {
    this.page.drawLine({ start: { x: MARGIN, y: this.y + 6 }, end: { x: A4[0] - MARGIN, y: this.y + 6 }, thickness: 0.5, color: MUTED });
    this.y -= 10;
  }
  table(columns: { title: string; x: number }[], rows: string[][]): void {
    for (const c of columns) this.text(c.title, MARGIN + c.x, { bold: true, size: 9 });
    this.y -= 14;
    for (const r of rows) {
      r.forEach((cell, i) => this.text(cell.slice(0, 48), MARGIN + columns[i]!.x, { size: 9 }));
      this.y -= 13;
      if (this.y < MARGIN + 60) break;
    }
  }
  async bytes(): Promise<Buffer> {
    return Buffer.from(await this.doc.save());
  }
}

function companyBlock(s: Sheet, d: CertificatePdfData, label: string): void {
  s.row(label, `${d.company.name} (#${d.company.id}, ${d.company.country})`);
  if (d.company.taxPin) s.row('Tax PIN / TIN', d.company.taxPin);
}

/** The certificate: cargo summary, validity, the verification code and a QR code of the verification URL. */
export async function renderCertificate(d: CertificatePdfData): Promise<Buffer> {
  const s = await Sheet.create(`Single-Use Certificate ${d.number}`, `Verification code ${d.verificationCode}`, d.issuedAt);
  s.heading('Single-Use Certificate');
  s.text(`Certificate No. ${d.number}`, MARGIN, { size: 12, bold: true });
  s.y -= 24;
  companyBlock(s, d, 'Clearing company');
  s.row('Applicant', d.applicantEmail);
  s.row('Issued', day(d.issuedAt));
  s.row('Valid until', `${day(d.validUntil)} (one use only)`);
  s.gap();
  s.rule();
  s.heading('Cargo (Import Declaration Form)', 12);
  s.row('IDF number', d.cargo.idfNumber);
  s.row('Importer', d.cargo.importerPin ? `${d.cargo.importerName} (PIN ${d.cargo.importerPin})` : d.cargo.importerName);
  if (d.cargo.consignor) s.row('Consignor', d.cargo.consignor);
  if (d.cargo.countryOfOrigin) s.row('Country of origin', d.cargo.countryOfOrigin);
  if (d.cargo.portOfDischarge) s.row('Port of discharge', d.cargo.portOfDischarge);
  if (d.cargo.invoiceValue !== null) s.row('Invoice value', money(d.cargo.invoiceValue, d.cargo.currency ?? ''));
  s.gap(4);
  s.table(
    [
      { title: 'HS code', x: 0 },
      { title: 'Description', x: 80 },
      { title: 'Quantity', x: 300 },
      { title: 'Value', x: 390 },
    ],
    d.cargo.lineItems.map((l) => [l.hsCode, l.description, `${l.quantity} ${l.unit}`, money(l.value, d.cargo.currency ?? '')]),
  );
  s.gap();
  s.rule();
  const qr = await QRCode.toBuffer(d.verifyUrl, { type: 'png', errorCorrectionLevel: 'M', margin: 1, width: 200 });
  const image = await s.doc.embedPng(qr);
  const size = 120;
  s.page.drawImage(image, { x: A4[0] - MARGIN - size, y: s.y - size, width: size, height: size });
  s.heading('Verification', 12);
  s.text(`Verification code: ${d.verificationCode}`, MARGIN, { size: 12, bold: true });
  s.y -= 18;
  s.text('Scan the QR code or open:', MARGIN, { color: MUTED, size: 9 });
  s.y -= 12;
  s.text(d.verifyUrl, MARGIN, { size: 8 });
  s.y -= 12;
  s.text('Valid only once approved by the association; the verification page shows the current status.', MARGIN, { color: MUTED, size: 8 });
  return s.bytes();
}

export async function renderInvoice(d: CertificatePdfData): Promise<Buffer> {
  const s = await Sheet.create(`Invoice ${d.invoiceNumber}`, `Single-use certificate ${d.number}`, d.issuedAt);
  s.heading('Invoice');
  s.row('Invoice No.', d.invoiceNumber);
  s.row('Date', day(d.issuedAt));
  companyBlock(s, d, 'Bill to');
  s.gap();
  s.rule();
  s.table(
    [
      { title: 'Item', x: 0 },
      { title: 'Reference', x: 260 },
      { title: 'Amount', x: 390 },
    ],
    [[`Single-use certificate fee`, `${d.number} / IDF ${d.cargo.idfNumber}`, money(d.fee.amount, d.fee.currency)]],
  );
  s.gap();
  s.row('Total due', money(d.fee.amount, d.fee.currency));
  return s.bytes();
}

export async function renderReceipt(d: CertificatePdfData): Promise<Buffer> {
  const s = await Sheet.create(`Receipt ${d.receiptNumber}`, `Payment for invoice ${d.invoiceNumber}`, d.payment.paidAt);
  s.heading('Receipt');
  s.row('Receipt No.', d.receiptNumber);
  s.row('Date', day(d.payment.paidAt));
  companyBlock(s, d, 'Received from');
  s.row('For', `Invoice ${d.invoiceNumber} (certificate ${d.number})`);
  s.row('Amount received', money(d.fee.amount, d.fee.currency));
  s.row('Payment method', d.payment.method.replace(/_/g, ' '));
  s.row('Payment reference', d.payment.reference);
  return s.bytes();
}
