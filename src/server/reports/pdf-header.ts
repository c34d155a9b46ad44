/**
 * The agency's brand at the top of a PDF page, and what a PDF knows of that brand
 * (`PdfBrand`): the light logo with the agency's name beside it, or the name alone in the brand's
 * colour, then a rule in the primary colour; the monthly report and the privacy documents draw it.
 * Draws only; the brand comes from pdf-brand.ts.
 */
import type PDFDocument from 'pdfkit';

type Doc = InstanceType<typeof PDFDocument>;

/** What the PDF shows of the agency's brand. */
export interface PdfBrand {
  name: string;
  /** Fills: the bars and the usage meter. */
  primary: string;
  /** Text and lines in the brand's colour on the white page (AA on white). */
  primaryText: string;
  footerText: string | null;
  /** PNG or JPEG bytes (PDFKit reads no other format; pdf-brand.ts converts), with their size. */
  logo: { png: Buffer; width: number; height: number } | null;
}

const MUTED = '#475569';
/** The logo's height, in points; its width follows its aspect ratio. */
const LOGO_HEIGHT = 28;

/** Draws the header at the page's top margin and leaves the cursor `gap` points below its rule. */
export function drawBrandHeader(doc: Doc, brand: PdfBrand, margin: number, gap = 14): void {
  const width = doc.page.width - margin * 2;
  if (brand.logo) {
    const w = Math.min(width * 0.5, (brand.logo.width / Math.max(1, brand.logo.height)) * LOGO_HEIGHT);
    doc.image(brand.logo.png, margin, margin, { fit: [w, LOGO_HEIGHT] });
    // The name beside the logo: for the text layer (screen readers, copying) as much as the eye.
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(10)
      .text(brand.name, margin + w + 12, margin + LOGO_HEIGHT / 2 - 5, {
        width: width - w - 12,
        lineBreak: false,
        ellipsis: true,
      });
    doc.y = margin + LOGO_HEIGHT + 8;
    doc.x = margin;
  } else {
    doc.fillColor(brand.primaryText).font('Helvetica-Bold').fontSize(11).text(brand.name, margin, margin);
  }
  doc
    .moveTo(margin, doc.y + 2)
    .lineTo(margin + width, doc.y + 2)
    .strokeColor(brand.primary)
    .lineWidth(2)
    .stroke();
  doc.y += gap;
  doc.x = margin;
}
